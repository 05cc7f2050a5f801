/**
 * Writes a file in the exact layout of FMCSA's Company Census File (42 quoted columns, Oracle
 * DD-MON-YY dates, names with commas and quotes) with made-up carriers, and keeps the counts the
 * importer must arrive at, computed here independently of it.
 */
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { defined } from "../support/defined.ts";

export const CENSUS_HEADER = [
  "DOT_NUMBER",
  "LEGAL_NAME",
  "DBA_NAME",
  "CARRIER_OPERATION",
  "HM_FLAG",
  "PC_FLAG",
  "PHY_STREET",
  "PHY_CITY",
  "PHY_STATE",
  "PHY_ZIP",
  "PHY_COUNTRY",
  "MAILING_STREET",
  "MAILING_CITY",
  "MAILING_STATE",
  "MAILING_ZIP",
  "MAILING_COUNTRY",
  "TELEPHONE",
  "FAX",
  "EMAIL_ADDRESS",
  "MCS150_DATE",
  "MCS150_MILEAGE",
  "MCS150_MILEAGE_YEAR",
  "ADD_DATE",
  "OIC_STATE",
  "NBR_POWER_UNIT",
  "DRIVER_TOTAL",
  "RECENT_MILEAGE",
  "RECENT_MILEAGE_YEAR",
  "VMT_SOURCE_ID",
  "PRIVATE_ONLY",
  "AUTHORIZED_FOR_HIRE",
  "EXEMPT_FOR_HIRE",
  "PRIVATE_PROPERTY",
  "PRIVATE_PASSENGER_BUSINESS",
  "PRIVATE_PASSENGER_NONBUSINESS",
  "MIGRANT",
  "US_MAIL",
  "FEDERAL_GOVERNMENT",
  "STATE_GOVERNMENT",
  "LOCAL_GOVERNMENT",
  "INDIAN_TRIBE",
  "OP_OTHER",
]; // prettier-ignore

const STATES = ["TX", "CA", "FL", "IL", "GA", "OH", "PA", "NJ", "NY", "NC", "IN", "TN", "WY", "DC"];
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
export const MALFORMED_KINDS = ["short row", "bad operation", "bad power units", "bad date", "duplicate dot"] as const;

export interface ExpectedCensus {
  rows: number;
  counted: number;
  notForHire: number;
  outsideStates: number;
  malformed: number;
  /** `${state}_${operation}` → counts */
  cells: Map<string, { carriers: number; powerUnits: number; drivers: number }>;
  newestFiling: string;
}

/** A small deterministic generator (mulberry32), so a failing run can be repeated exactly. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

export async function writeCensusFile(
  path: string,
  options: { rows: number; malformedEvery?: number; seed?: number },
): Promise<ExpectedCensus> {
  mkdirSync(dirname(path), { recursive: true });
  const next = random(options.seed ?? 7);
  const pick = <T>(items: readonly T[]) => defined(items[Math.floor(next() * items.length)], "a random item");
  const out = createWriteStream(path);
  const expected: ExpectedCensus = {
    rows: options.rows,
    counted: 0,
    notForHire: 0,
    outsideStates: 0,
    malformed: 0,
    cells: new Map(),
    newestFiling: "",
  };
  let buffer = `${CENSUS_HEADER.map(quote).join(",")}\r\n`;

  for (let i = 0; i < options.rows; i++) {
    const dot = 1_000_000 + i;
    const operation = next() < 0.7 ? "A" : next() < 0.85 ? "C" : "B";
    const state = next() < 0.02 ? "ON" : pick(STATES);
    const powerUnits = Math.floor(1 / (next() + 0.01)); // mostly 1-3 trucks, a few large fleets
    const drivers = powerUnits + Math.floor(next() * 3);
    const forHire = next() < 0.6 ? "Y" : "N";
    const exempt = forHire === "N" && next() < 0.1 ? "Y" : "N";
    const year = 2015 + Math.floor(next() * 10);
    const filed = `${String(1 + Math.floor(next() * 28)).padStart(2, "0")}-${pick(MONTHS)}-${String(year % 100).padStart(2, "0")}`;
    const cells = new Map<string, string>([
      ["DOT_NUMBER", String(dot)],
      ["LEGAL_NAME", `CARRIER ${i}, "THE" TRUCKING LLC`],
      ["DBA_NAME", next() < 0.5 ? "" : `HAUL ${i}`],
      ["CARRIER_OPERATION", operation],
      ["HM_FLAG", operation === "B" ? "Y" : "N"],
      ["PC_FLAG", "N"],
      ["PHY_STREET", `${i} MAIN ST, SUITE 4`],
      ["PHY_CITY", "SPRINGFIELD"],
      ["PHY_STATE", state],
      ["PHY_ZIP", "12345"],
      ["PHY_COUNTRY", state === "ON" ? "CA" : "US"],
      ["MCS150_DATE", filed],
      ["MCS150_MILEAGE", String(powerUnits * 90_000)],
      ["MCS150_MILEAGE_YEAR", String(year - 1)],
      ["ADD_DATE", `15-MAR-${String((year - 3) % 100).padStart(2, "0")}`],
      ["NBR_POWER_UNIT", String(powerUnits)],
      ["DRIVER_TOTAL", String(drivers)],
      ["AUTHORIZED_FOR_HIRE", forHire],
      ["EXEMPT_FOR_HIRE", exempt],
      ["PRIVATE_PROPERTY", forHire === "N" && exempt === "N" ? "Y" : "N"],
      ["TELEPHONE", "(555) 010-0000"],
      ["EMAIL_ADDRESS", `dispatch${i}@example.com`],
    ]);
    let row = CENSUS_HEADER.map((column) => quote(cells.get(column) ?? ""));

    const malformed = options.malformedEvery && i % options.malformedEvery === options.malformedEvery - 1;
    if (malformed) {
      const kind = defined(
        MALFORMED_KINDS[
          Math.floor(i / defined(options.malformedEvery, "options.malformedEvery")) % MALFORMED_KINDS.length
        ],
        "a malformed kind",
      );
      if (kind === "short row") row = row.slice(0, 20);
      else if (kind === "bad operation") row[CENSUS_HEADER.indexOf("CARRIER_OPERATION")] = quote("Z");
      else if (kind === "bad power units") row[CENSUS_HEADER.indexOf("NBR_POWER_UNIT")] = quote("12x");
      else if (kind === "bad date") row[CENSUS_HEADER.indexOf("MCS150_DATE")] = quote("31-FOO-20");
      else row[0] = quote(String(dot - 1));
      expected.malformed++;
    } else {
      const iso = `${year}-${String(MONTHS.indexOf(filed.slice(3, 6)) + 1).padStart(2, "0")}-${filed.slice(0, 2)}`;
      if (iso > expected.newestFiling) expected.newestFiling = iso;
      if (state === "ON") expected.outsideStates++;
      else if (forHire === "N" && exempt === "N") expected.notForHire++;
      else {
        const key = `${state}_${operation}`;
        const cell = expected.cells.get(key) ?? { carriers: 0, powerUnits: 0, drivers: 0 };
        cell.carriers++;
        cell.powerUnits += powerUnits;
        cell.drivers += drivers;
        expected.cells.set(key, cell);
        expected.counted++;
      }
    }
    buffer += `${row.join(",")}\r\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await new Promise((resolve) => out.once("drain", resolve));
      buffer = "";
    }
  }
  await new Promise<void>((resolve, reject) =>
    out.end(buffer, (error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return expected;
}
