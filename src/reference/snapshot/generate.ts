/**
 * Builds the embedded snapshot from the research team's CSV copies (/work/shared/data).
 * Run by hand when the figures change: `bun src/reference/snapshot/generate.ts [shared-data-dir]`.
 * The output is this project's own format (see format.ts), not a copy of the input files.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DIESEL_AREAS,
  dieselSeriesId,
  FEDERAL_DIESEL_EXCISE_SERIES,
  NATIONAL_TRUCK_DRIVER_WAGE_SERIES,
  stateDieselExciseSeries,
  stateTruckDriverWageSeries,
} from "../series-ids.ts";
import { DIESEL_AREA_NAMES } from "../regions.ts";
import type { SnapshotFile, SnapshotSeries } from "./format.ts";

export const SNAPSHOT_VERSION = "2026-11-22";
const dataDir = process.argv[2] ?? join(import.meta.dir, "../../../../shared/data");

function readCsv(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(dataDir, file), "utf8").trim().split(/\r?\n/);
  const columns = header!.split(",");
  return lines.map((line) => {
    const cells = line.split(",");
    return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""]));
  });
}

const number = (cell: string | undefined): number | null => (cell === undefined || cell === "" ? null : Number(cell));

function regular(
  meta: Omit<SnapshotSeries, "start" | "every" | "values" | "points">,
  every: "week" | "month",
  rows: [string, number | null][],
): SnapshotSeries {
  const firstValue = rows.findIndex(([, value]) => value !== null);
  const kept = rows.slice(firstValue);
  return { ...meta, start: kept[0]![0], every, values: kept.map(([, value]) => value) };
}

const series: SnapshotSeries[] = [];

// EIA national weekly diesel: the longest series, through 2026-10-05.
const national = readCsv("eia_diesel_weekly_us_1994-2026.csv");
series.push(
  regular(
    {
      id: dieselSeriesId("NUS"),
      title: "EIA weekly U.S. retail on-highway No. 2 diesel price",
      unit: "USD/gal",
      source: "EIA (republished by FRED as GASDESW); research copy eia_diesel_weekly_us_1994-2026",
    },
    "week",
    national.map((row) => [row.date!, number(row.usd_per_gal)]),
  ),
);

// Regional weekly diesel: the 1994-2024 workbook copy up to 2022-06-06, the 2022-2026 copy after it.
const early = readCsv("eia_diesel_weekly_padd_1994-2024.csv").filter((row) => row.period! < "2022-06-13");
const late = readCsv("eia_diesel_weekly_padd_2022-2026.csv");
for (const area of DIESEL_AREAS.filter((a) => a !== "NUS")) {
  series.push(
    regular(
      {
        id: dieselSeriesId(area),
        title: `EIA weekly retail on-highway No. 2 diesel price, ${DIESEL_AREA_NAMES[area]}`,
        unit: "USD/gal",
        source:
          "EIA workbook psw18vwall.xls sheet Data 1 (research copies eia_diesel_weekly_padd_1994-2024 and eia_diesel_weekly_padd_2022-2026)",
      },
      "week",
      [...early, ...late].map((row) => [row.period!, number(row[area])]),
    ),
  );
}

// BLS OEWS May 2024, SOC 53-3032, hourly median by state.
const oews = readCsv("bls_oews_53-3032_heavy_truck_drivers_by_state_may2024.csv");
for (const row of oews) {
  if (row.state === "US") continue;
  series.push({
    id: stateTruckDriverWageSeries(row.area_fips!),
    title: `BLS OEWS heavy and tractor-trailer truck drivers (53-3032), hourly median wage, ${row.state_name}`,
    unit: "USD/hour",
    source: `BLS OEWS May 2024 state estimates (${row.source === "oews_state_file" ? "state_M2024_dl" : "annual median / 2080, as quoted from BLS by wagedex"})`,
    points: [["2024-05-01", Number(row.h_median)]],
  });
}
const usWage = oews.find((row) => row.state === "US")!;
series.push({
  id: NATIONAL_TRUCK_DRIVER_WAGE_SERIES,
  title: "BLS OEWS heavy and tractor-trailer truck drivers (53-3032), hourly median wage, U.S.",
  unit: "USD/hour",
  source:
    "BLS OEWS national estimates: May 2019 (bls.gov oes533032 page), May 2023 (BLS Occupational Outlook Handbook), May 2024 (OEWS file copy), May 2025 (BLS OOH as quoted)",
  points: [
    ["2019-05-01", 21.76],
    ["2023-05-01", 26.12],
    ["2024-05-01", Number(usWage.h_median)],
    ["2025-05-01", 28.19],
  ],
});

series.push(
  regular(
    {
      id: "CES4348400001",
      title: "BLS CES all employees, truck transportation (NAICS 484), seasonally adjusted",
      unit: "thousands",
      source: "BLS Current Employment Statistics (vintage after the February 2026 benchmark)",
    },
    "month",
    readCsv("bls_ces4348400001_truck_employment_1990-2026.csv").map((row) => [row.date!, number(row.employees_thousands_sa)]),
  ),
);

const fredMonthly: [string, string, string, string, string][] = [
  ["WPU301", "fred_wpu301_truck_freight_ppi_2009-2025.csv", "WPU301", "BLS PPI truck transportation of freight", "index Jun 2009=100"],
  ["TSIFRGHT", "fred_tsifrght_2000-2025.csv", "TSIFRGHT", "BTS Freight Transportation Services Index, SA", "index 2000=100"],
  ["FEDFUNDS", "fred_fedfunds_2022-06_2026-03.csv", "FEDFUNDS", "Effective federal funds rate", "percent"],
  ["INDPRO", "fred_indpro_2018-2026.csv", "indpro_2017eq100", "Industrial production index, SA", "index 2017=100"],
];
for (const [id, file, column, title, unit] of fredMonthly) {
  const rows = readCsv(file);
  const dateColumn = "observation_date" in rows[0]! ? "observation_date" : "date";
  series.push(regular({ id, title, unit, source: `FRED series ${id}` }, "month", rows.map((row) => [row[dateColumn]!, number(row[column])])));
}

series.push({
  id: "DCOILWTICO",
  title: "WTI crude oil spot price, Cushing OK, daily",
  unit: "USD/barrel",
  source: "FRED series DCOILWTICO (EIA)",
  points: readCsv("fred_dcoilwtico_2025-12_2026-09.csv")
    .filter((row) => row.DCOILWTICO !== "" && row.DCOILWTICO !== ".")
    .map((row) => [row.observation_date!, Number(row.DCOILWTICO)]),
});

for (const row of readCsv("fhwa_state_diesel_excise_2024.csv")) {
  if (row.diesel_excise_cents_per_gal === "") continue; // DC: no rate in the FHWA table; lookups fall back to no state excise
  const federal = row.state === "US_FEDERAL";
  series.push({
    id: federal ? FEDERAL_DIESEL_EXCISE_SERIES : stateDieselExciseSeries(row.state!),
    title: federal ? "Federal diesel excise tax" : `State diesel excise tax, ${row.state}${row.flag ? ` (${row.flag})` : ""}`,
    unit: "cents/gal",
    source: federal
      ? "FHWA MF-121T (2024); the 24.4 c/gal rate (24.3 + 0.1 LUST) applies since 1997-10-01"
      : "FHWA Highway Statistics table MF-121T (2024), rate and effective date",
    // The federal row carries no date in the table; its rate has been unchanged since October 1997.
    points: [[federal ? "1997-10-01" : row.effective_date!, Number(row.diesel_excise_cents_per_gal)]],
  });
}

const snapshot: SnapshotFile = {
  version: SNAPSHOT_VERSION,
  built_from: "Waybill research copies of EIA, BLS, FRED and FHWA publications (see each series' source)",
  note: "No USDA AMS truck-rate observations are included: none were available; import them with `waybill data import ams FILE`.",
  series,
};
const out = join(import.meta.dir, "figures.json");
writeFileSync(out, JSON.stringify(snapshot));
console.log(`${out}: ${series.length} series, ${Bun.file(out).size} bytes`);
