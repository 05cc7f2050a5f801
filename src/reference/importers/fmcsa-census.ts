/**
 * FMCSA Company Census File (the MCMIS census as FMCSA publishes it: one CSV row per carrier, about
 * two million rows) reduced to counts by physical state and CARRIER_OPERATION while it streams by.
 * Only the aggregates leave this module; names, addresses and contact columns are never kept.
 * Rules and reasons: docs/carrier-capacity.md#the-census-import.
 */
import { type Readable, Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { isCalendarDate } from "../../dates.ts";
import Papa from "papaparse";
import type { ParsedObservation } from "../storage/append.ts";
import { isStateCode, STATE_CODES } from "../geo/regions.ts";
import {
  CARRIER_OPERATIONS,
  CENSUS_MEASURES,
  fmcsaCensusSeries,
  type CarrierOperation,
  type CensusMeasure,
} from "../series/series-ids.ts";
import { ImportFormatError } from "./common.ts";

/** Columns the aggregation reads; every other published column is skipped unread. */
export const CENSUS_COLUMNS = [
  "DOT_NUMBER",
  "CARRIER_OPERATION",
  "PHY_STATE",
  "NBR_POWER_UNIT",
  "DRIVER_TOTAL",
  "MCS150_DATE",
  "ADD_DATE",
  "AUTHORIZED_FOR_HIRE",
  "EXEMPT_FOR_HIRE",
] as const;
type CensusColumn = (typeof CENSUS_COLUMNS)[number];

/** A share of malformed rows above this means the file is not a census file (or is damaged): refused whole. */
export const MAX_MALFORMED_SHARE = 0.05;
/** Larger fleets than this are typing errors: the largest US fleets run tens of thousands of power units. */
const MAX_UNITS_PER_CARRIER = 200_000;
const EXAMPLES_KEPT = 5;

export interface CensusCell {
  carriers: number;
  powerUnits: number;
  drivers: number;
}

export interface CensusProgress {
  bytesRead: number;
  rows: number;
}

export interface CensusAggregate {
  /** Data rows read (header excluded). */
  rows: number;
  /** For-hire US carriers counted into the cells. */
  counted: number;
  malformed: number;
  /** The first few malformed rows: data row number (header not counted) and what was wrong (never the row's content). */
  malformedExamples: string[];
  /** Private carriers (neither authorized nor exempt for-hire): valid rows, not counted. */
  notForHire: number;
  /** Valid rows whose physical state is not one of the 50 states or DC (Canada, Mexico, territories). */
  outsideStates: number;
  /** The newest MCS150_DATE or ADD_DATE seen: the census cannot be older than its newest filing. */
  newestFiling: string | undefined;
  /** `${state}_${operation}` → counts. */
  cells: Map<string, CensusCell>;
}

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/**
 * The census's date cells: Oracle's `DD-MON-YY` in the classic file, `YYYYMMDD[ HHMM]` in the open-data
 * export, ISO in some mirrors. Two-digit years pivot at 70 (MCMIS starts in the 1970s).
 */
export function censusDate(text: string): string | undefined {
  // Each group matches at least one character, so a match's groups are never empty.
  const [, oracleDay, oracleMonth, oracleYear] = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})$/.exec(text) ?? [];
  const numeric = oracleYear ? undefined : /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T].*)?$/.exec(text);
  let parts: [year: number, month: number, day: number];
  if (oracleDay && oracleMonth && oracleYear) {
    const y = Number(oracleYear);
    const year = oracleYear.length === 4 ? y : y >= 70 ? 1900 + y : 2000 + y;
    parts = [year, MONTHS.indexOf(oracleMonth.toUpperCase()) + 1, Number(oracleDay)];
  } else if (numeric) parts = [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])];
  else return undefined;
  const [year, month, day] = parts;
  const iso = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return month > 0 && isCalendarDate(iso) ? iso : undefined;
}

/** A count cell: blank is zero (the census leaves it empty when nothing was reported). */
function count(text: string): number | undefined {
  if (text === "") return 0;
  if (!/^\d{1,7}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_UNITS_PER_CARRIER ? value : undefined;
}

/** DOT numbers seen so far, one bit each: duplicates are malformed, and two million ids fit in a few hundred KB. */
class DotNumberSet {
  private bits = new Uint8Array(1 << 20);
  /** Adds the number; false when it was already there. */
  add(dot: number): boolean {
    const byte = dot >>> 3;
    if (byte >= this.bits.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    const mask = 1 << (dot & 7);
    const held = this.bits[byte];
    if (held === undefined) throw new Error(`DOT number set: byte ${byte} is past the grown bit array`);
    if (held & mask) return false;
    this.bits[byte] = held | mask;
    return true;
  }
}

function columnIndexes(header: string[]): Record<CensusColumn, number> {
  const names = header.map((cell) => cell.trim().toUpperCase());
  const missing = CENSUS_COLUMNS.filter((column) => !names.includes(column));
  if (missing.length > 0) {
    throw new ImportFormatError(
      `the header lacks ${missing.join(", ")}; is this FMCSA's Company Census File (CSV with a header row)?`,
    );
  }
  return Object.fromEntries(CENSUS_COLUMNS.map((column) => [column, names.indexOf(column)])) as Record<
    CensusColumn,
    number
  >;
}

interface CarrierRow {
  dot: number;
  operation: CarrierOperation;
  state: string;
  forHire: boolean;
  powerUnits: number;
  drivers: number;
  filings: string[];
}

/** A flag cell: `Y` in FMCSA's file, `true` where the open-data portal serves the column as a checkbox. */
const isYes = (text: string) => /^(y|true)$/i.test(text);

/** One data row checked cell by cell: the carrier's figures, or what is wrong with it. */
function readRow(record: string[], at: Record<CensusColumn, number>, width: number): CarrierRow | string {
  if (record.length !== width) return `${record.length} cells where the header has ${width}`;
  const cell = (column: CensusColumn) => {
    const text = record[at[column]];
    if (text === undefined)
      throw new Error(`census column ${column} is at ${at[column]}, past the row's ${width} cells`);
    return text.trim();
  };
  const dot = cell("DOT_NUMBER");
  if (!/^\d{1,9}$/.test(dot) || Number(dot) === 0) return "DOT_NUMBER is not a USDOT number";
  const operation = cell("CARRIER_OPERATION").toUpperCase();
  if (!(CARRIER_OPERATIONS as readonly string[]).includes(operation))
    return `CARRIER_OPERATION '${operation.slice(0, 8)}' is not A, B or C`;
  const powerUnits = count(cell("NBR_POWER_UNIT"));
  const drivers = count(cell("DRIVER_TOTAL"));
  if (powerUnits === undefined || drivers === undefined)
    return `NBR_POWER_UNIT / DRIVER_TOTAL is not a count between 0 and ${MAX_UNITS_PER_CARRIER}`;
  const filings: string[] = [];
  for (const text of [cell("MCS150_DATE"), cell("ADD_DATE")]) {
    if (text === "") continue;
    const iso = censusDate(text);
    if (!iso) return `'${text.slice(0, 20)}' is not a date`;
    filings.push(iso);
  }
  return {
    dot: Number(dot),
    operation: operation as CarrierOperation,
    state: cell("PHY_STATE").toUpperCase(),
    forHire: isYes(cell("AUTHORIZED_FOR_HIRE")) || isYes(cell("EXEMPT_FOR_HIRE")),
    powerUnits,
    drivers,
    filings,
  };
}

/** Adds rows to the aggregate one at a time; memory is a bitset of DOT numbers and 51 × 3 cells. */
class CensusCounter {
  readonly result: CensusAggregate = {
    rows: 0,
    counted: 0,
    malformed: 0,
    malformedExamples: [],
    notForHire: 0,
    outsideStates: 0,
    newestFiling: undefined,
    cells: new Map(),
  };
  private readonly seen = new DotNumberSet();
  private at: Record<CensusColumn, number> | undefined;
  private header = "";
  private width = 0;
  /** The next record is a later page's own header row, which must repeat the first page's. */
  private pageHeaderDue = false;

  get sawHeader(): boolean {
    return this.at !== undefined;
  }

  /** The records that follow come from the next page of a paged export, which starts with the header again. */
  startPage(): void {
    this.pageHeaderDue = this.at !== undefined;
  }

  add(record: string[]): void {
    if (!this.at || this.pageHeaderDue) {
      const header = record
        .map((cell, i) => (i === 0 ? cell.replace(/^\uFEFF/, "") : cell).trim().toUpperCase())
        .join(",");
      if (this.pageHeaderDue) {
        if (header !== this.header)
          throw new ImportFormatError(`a later page's header (${header.slice(0, 120)}) differs from the first page's`);
        this.pageHeaderDue = false;
        return;
      }
      this.at = columnIndexes(record.map((cell, i) => (i === 0 ? cell.replace(/^\uFEFF/, "") : cell)));
      this.header = header;
      this.width = record.length;
      return;
    }
    const result = this.result;
    result.rows++;
    let row = readRow(record, this.at, this.width);
    if (typeof row !== "string" && !this.seen.add(row.dot)) row = "DOT_NUMBER appears twice in the file";
    if (typeof row === "string") {
      result.malformed++;
      if (result.malformedExamples.length < EXAMPLES_KEPT) result.malformedExamples.push(`row ${result.rows}: ${row}`);
      return;
    }
    for (const iso of row.filings) if (!result.newestFiling || iso > result.newestFiling) result.newestFiling = iso;
    if (!isStateCode(row.state)) result.outsideStates++;
    else if (!row.forHire) result.notForHire++;
    else {
      const key = `${row.state}_${row.operation}`;
      const counts = result.cells.get(key) ?? { carriers: 0, powerUnits: 0, drivers: 0 };
      counts.carriers++;
      counts.powerUnits += row.powerUnits;
      counts.drivers += row.drivers;
      result.cells.set(key, counts);
      result.counted++;
    }
  }
}

/**
 * Streams a census CSV once and returns its aggregates; memory stays flat whatever the file's size.
 * A paged export (the open-data API's pages of CSV, each with its header row) is read page after
 * page until `nextPage` has none, and counts as one file. `nextPage` learns
 * how many data rows were read so far, so it can tell a short (last) page.
 */
export async function aggregateCensusPages(
  nextPage: (page: number, rowsSoFar: number) => Promise<Readable | undefined>,
  onProgress?: (progress: CensusProgress) => void,
): Promise<CensusAggregate> {
  const counter = new CensusCounter();
  const progress = { bytesRead: 0 };
  for (let page = 0; ; page++) {
    const input = await nextPage(page, counter.result.rows);
    if (!input) break;
    counter.startPage();
    await feedCensus(input, counter, progress, onProgress);
  }
  if (!counter.sawHeader) throw new ImportFormatError("the file is empty");
  onProgress?.({ bytesRead: progress.bytesRead, rows: counter.result.rows });
  return counter.result;
}

const PIECE_CHARS = 65_536;

/**
 * The input as text in pieces of at most 64 K characters, never splitting a UTF-8 character. Papa's
 * stream parser copies what is left of its current chunk each time its reader pauses (every few
 * rows), so one chunk of megabytes (a whole page of an HTTP answer) would cost quadratic time.
 */
function inPieces(): Transform {
  const decoder = new StringDecoder("utf8");
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer | string, _encoding, done) {
      const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
      for (let at = 0; at < text.length; at += PIECE_CHARS) this.push(text.slice(at, at + PIECE_CHARS));
      done();
    },
    flush(done) {
      const rest = decoder.end();
      if (rest) this.push(rest);
      done();
    },
  });
}

/**
 * Papa's Node stream hands over one row (an array of cells) per record, honouring quotes; rows are
 * taken from its 'data' events (an async iterator costs more than the parsing itself).
 */
function feedCensus(
  input: Readable,
  counter: CensusCounter,
  progress: { bytesRead: number },
  onProgress?: (progress: CensusProgress) => void,
): Promise<void> {
  input.on("data", (chunk: Buffer | string) => (progress.bytesRead += chunk.length));
  const records = input.pipe(inPieces()).pipe(Papa.parse(Papa.NODE_STREAM_INPUT, { skipEmptyLines: true }));
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      records.removeAllListeners("data");
      input.destroy();
      reject(error);
    };
    input.on("error", fail);
    records.on("data", (record: string[]) => {
      try {
        counter.add(record);
      } catch (error) {
        return fail(error);
      }
      const rows = counter.result.rows;
      if (onProgress && rows > 0 && (rows & 0xffff) === 0) onProgress({ bytesRead: progress.bytesRead, rows });
    });
    records.on("end", () => resolve());
  });
}

/** Refuses a census that is mostly garbage or holds nothing to count; one line the operator can act on. */
export function checkCensusQuality(aggregate: CensusAggregate): void {
  if (aggregate.rows === 0) throw new ImportFormatError("the file has a header but no carrier rows");
  const share = aggregate.malformed / aggregate.rows;
  if (share > MAX_MALFORMED_SHARE) {
    throw new ImportFormatError(
      `${aggregate.malformed} of ${aggregate.rows} rows are malformed (${(share * 100).toFixed(1)}%, at most ${MAX_MALFORMED_SHARE * 100}% allowed); ` +
        `first: ${aggregate.malformedExamples.join("; ")}`,
    );
  }
  if (aggregate.counted === 0) throw new ImportFormatError("no for-hire carrier in the 50 states and DC was found");
}

const MEASURE_OF: Record<CensusMeasure, keyof CensusCell> = {
  CARRIERS: "carriers",
  POWER_UNITS: "powerUnits",
  DRIVERS: "drivers",
};

/**
 * Every state × operation × measure, zeros included, and the U.S. totals under state `US`: once a
 * census is loaded, a state with no intrastate hazmat carrier has a stored 0, which the skill can
 * tell apart from "no census", and a national answer reads 9 figures rather than 459.
 */
export function censusObservations(aggregate: CensusAggregate, snapshotDate: string): ParsedObservation[] {
  const national = new Map<CarrierOperation, CensusCell>(
    CARRIER_OPERATIONS.map((operation) => [operation, { carriers: 0, powerUnits: 0, drivers: 0 }]),
  );
  const rows: ParsedObservation[] = [];
  const push = (state: string, operation: CarrierOperation, cell: CensusCell) => {
    for (const measure of CENSUS_MEASURES) {
      rows.push({
        seriesId: fmcsaCensusSeries(measure, state, operation),
        observedOn: snapshotDate,
        value: cell[MEASURE_OF[measure]],
      });
    }
  };
  for (const state of STATE_CODES) {
    // The totals map holds every operation, in CARRIER_OPERATIONS order.
    for (const [operation, total] of national) {
      const cell = aggregate.cells.get(`${state}_${operation}`) ?? { carriers: 0, powerUnits: 0, drivers: 0 };
      push(state, operation, cell);
      total.carriers += cell.carriers;
      total.powerUnits += cell.powerUnits;
      total.drivers += cell.drivers;
    }
  }
  for (const [operation, total] of national) push("US", operation, total);
  return rows;
}

const FILE_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * The snapshot date a census file's name carries: FMCSA names monthly files like `FMCSA_CENSUS1_2024Jun`
 * (dated the 1st of that month); downloads saved by date carry `2026-11-01` or `20261101`.
 */
export function snapshotDateFromFileName(name: string): string | undefined {
  const yearFirst = /(\d{4})[-_]?([A-Za-z]{3})(?![a-z])/.exec(name);
  const monthFirst = yearFirst ? undefined : /([A-Za-z]{3})[-_]?(\d{4})/.exec(name);
  const [, year, month] = yearFirst ?? [];
  const [, monthBefore, yearAfter] = monthFirst ?? [];
  const monthly =
    year && month ? { year, month } : monthBefore && yearAfter ? { year: yearAfter, month: monthBefore } : undefined;
  if (monthly) {
    const index = FILE_MONTHS.indexOf(monthly.month.toLowerCase());
    if (index >= 0) return `${monthly.year}-${String(index + 1).padStart(2, "0")}-01`;
  }
  const daily = /(\d{4})-?(\d{2})-?(\d{2})/.exec(name);
  return daily ? censusDate(`${daily[1]}-${daily[2]}-${daily[3]}`) : undefined;
}
