/**
 * What the product knows about every series it uses: unit, plausible range, cadence, first date and
 * when a figure for a given date is published. Importers keep only series found here, refuse values
 * outside the range, and date each figure's publication by its rule when the source prints none.
 * docs/data-sources.md is the prose version of this table; keep the two in step.
 */
import { DAY_MS, utcDateOf } from "../../dates.ts";
import { AMS_FVWTRK_PREFIX, DIESEL_AREAS, dieselSeriesId, FEDERAL_DIESEL_EXCISE_SERIES } from "./series-ids.ts";

export type Cadence = "daily" | "weekly" | "monthly" | "annual" | "irregular";

export interface SeriesRule {
  /** A short name for the family, shown in `data status`. */
  family: string;
  unit: string;
  /** Inclusive plausible range; a value outside it is refused at the door. */
  min: number;
  max: number;
  cadence: Cadence;
  /** No observation may be dated before this. */
  firstDate: string;
  /** The date a figure dated `observedOn` is first public, when the source does not print it. */
  published(observedOn: string): string;
  /** Days after the expected next observation's publication before the series counts as overdue. */
  graceDays: number;
}

const addDays = (isoDate: string, days: number): string =>
  utcDateOf(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS);

/** The `day`th of the month `months` after the month of `isoDate`. */
const dayOfMonthAfter = (isoDate: string, months: number, day: number): string => {
  const date = new Date(`${isoDate.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  date.setUTCDate(day);
  return date.toISOString().slice(0, 10);
};

/** The first Friday of the month after `isoDate` (BLS's Employment Situation day). */
const firstFridayOfNextMonth = (isoDate: string): string => {
  const first = new Date(`${dayOfMonthAfter(isoDate, 1, 1)}T00:00:00Z`);
  const offset = (5 - first.getUTCDay() + 7) % 7;
  return addDays(first.toISOString().slice(0, 10), offset);
};

/** BLS OEWS release dates by reference year (May estimates); other years: April 1 of the next year. */
const OEWS_RELEASES: Record<string, string> = {
  "2019": "2020-03-31",
  "2020": "2021-03-31",
  "2021": "2022-03-31",
  "2022": "2023-04-25",
  "2023": "2024-04-03",
  "2024": "2025-04-02",
};
const oewsPublished = (observedOn: string): string =>
  OEWS_RELEASES[observedOn.slice(0, 4)] ?? `${Number(observedOn.slice(0, 4)) + 1}-04-01`;

const monthly = (
  family: string,
  unit: string,
  min: number,
  max: number,
  firstDate: string,
  published: (d: string) => string,
): SeriesRule => ({
  family,
  unit,
  min,
  max,
  cadence: "monthly",
  firstDate,
  published,
  graceDays: 20,
});

/** The federal diesel excise; each state's (FHWA_MF121T_DIESEL_XX) follows the same rule. */
const DIESEL_EXCISE: SeriesRule = {
  family: "FHWA diesel excise",
  unit: "cents/gal",
  min: 0,
  max: 100,
  cadence: "irregular",
  firstDate: "1932-01-01",
  published: (d) => d,
  graceDays: Number.POSITIVE_INFINITY,
};

const EXACT: Record<string, SeriesRule> = {
  CES4348400001: monthly("BLS CES truck employment", "thousands", 500, 3000, "1990-01-01", firstFridayOfNextMonth),
  WPU301: monthly("BLS PPI truck freight", "index Jun 2009=100", 50, 400, "2009-06-01", (d) =>
    dayOfMonthAfter(d, 1, 15),
  ),
  PCU336120336120: monthly("BLS PPI heavy truck manufacturing", "index Dec 1984=100", 50, 400, "1984-12-01", (d) =>
    dayOfMonthAfter(d, 1, 15),
  ),
  TSIFRGHT: monthly("BTS freight TSI", "index 2000=100", 50, 250, "2000-01-01", (d) => dayOfMonthAfter(d, 2, 15)),
  INDPRO: monthly("FRB industrial production", "index 2017=100", 20, 250, "1919-01-01", (d) =>
    dayOfMonthAfter(d, 1, 17),
  ),
  FEDFUNDS: monthly("Effective fed funds rate", "percent", 0, 25, "1954-07-01", (d) => dayOfMonthAfter(d, 1, 2)),
  DCOILWTICO: {
    family: "WTI crude spot",
    unit: "USD/barrel",
    min: -50, // April 2020 printed -36.98
    max: 300,
    cadence: "daily",
    firstDate: "1986-01-02",
    published: (d) => addDays(d, 7),
    graceDays: 10,
  },
  CASS_SHIPMENTS_INDEX: monthly("Cass Freight Index", "index Jan 1990=1", 0.3, 3, "1990-01-01", (d) =>
    dayOfMonthAfter(d, 1, 15),
  ),
  CASS_EXPENDITURES_INDEX: monthly("Cass Freight Index", "index Jan 1990=1", 0.5, 8, "1990-01-01", (d) =>
    dayOfMonthAfter(d, 1, 15),
  ),
  CASS_TL_LINEHAUL_INDEX: monthly("Cass Truckload Linehaul Index", "index Jan 2005=100", 50, 300, "2005-01-01", (d) =>
    dayOfMonthAfter(d, 1, 15),
  ),
  ATA_TONNAGE_SA: monthly("ATA truck tonnage", "index 2015=100", 50, 200, "2000-01-01", (d) =>
    dayOfMonthAfter(d, 1, 25),
  ),
  ATA_TONNAGE_NSA: monthly("ATA truck tonnage", "index 2015=100", 50, 200, "2000-01-01", (d) =>
    dayOfMonthAfter(d, 1, 25),
  ),
  FMCSA_NEW_FORHIRE_AUTHORITIES: monthly(
    "FMCSA for-hire authorities",
    "authorities/month",
    0,
    30000,
    "2000-01-01",
    (d) => dayOfMonthAfter(d, 1, 10),
  ),
  FMCSA_NET_REVOCATIONS: monthly("FMCSA for-hire authorities", "revocations/month", 0, 30000, "2000-01-01", (d) =>
    dayOfMonthAfter(d, 1, 10),
  ),
  FMCSA_NET_CHANGE_CARRIERS: monthly("FMCSA for-hire authorities", "carriers/month", -30000, 30000, "2000-01-01", (d) =>
    dayOfMonthAfter(d, 1, 10),
  ),
  [FEDERAL_DIESEL_EXCISE_SERIES]: DIESEL_EXCISE,
};

const DIESEL: SeriesRule = {
  family: "EIA weekly diesel",
  unit: "USD/gal",
  min: 0.5,
  max: 10,
  cadence: "weekly",
  firstDate: "1994-03-21",
  // EIA surveys Monday's price and releases it that afternoon (Tuesday after a Monday holiday).
  published: (d) => d,
  graceDays: 5,
};

const PATTERNS: [RegExp, SeriesRule][] = [
  [
    /^OEU[NS]\d{7}00000053303208$/,
    {
      family: "BLS OEWS truck driver wage",
      unit: "USD/hour",
      min: 5,
      max: 100,
      cadence: "annual",
      firstDate: "1997-05-01",
      published: oewsPublished,
      graceDays: 60,
    },
  ],
  [
    /^OEU[NS]\d{7}00000053303201$/,
    {
      family: "BLS OEWS truck driver employment",
      unit: "jobs",
      min: 0,
      max: 5_000_000,
      cadence: "annual",
      firstDate: "1997-05-01",
      published: oewsPublished,
      graceDays: 60,
    },
  ],
  [/^FHWA_MF121T_DIESEL_[A-Z]{2}$/, { ...DIESEL_EXCISE, family: "FHWA diesel excise" }],
  [
    new RegExp(`^${AMS_FVWTRK_PREFIX}(LOW|HIGH)_[A-Z0-9-]+__[A-Z0-9-]+$`),
    {
      family: "USDA AMS reefer truck rates",
      unit: "USD/load",
      min: 100,
      max: 30000,
      cadence: "weekly",
      firstDate: "2000-01-01",
      published: (d) => d, // the report is dated the day it is released
      graceDays: 14,
    },
  ],
  [
    /^FMCSA_CENSUS_(CARRIERS|POWER_UNITS|DRIVERS)_[A-Z]{2}_[ABC]$/,
    {
      family: "FMCSA census",
      unit: "count",
      min: 0,
      max: 10_000_000,
      cadence: "monthly",
      firstDate: "2000-01-01",
      published: (d) => d,
      graceDays: 45,
    },
  ],
  [
    /^FMCSA_NEW_(CARRIERS|AUTHORITIES)_[A-Z]{2}$/,
    monthly("FMCSA new carriers by state", "carriers/month", 0, 20000, "2000-01-01", (d) => dayOfMonthAfter(d, 1, 10)),
  ],
];

const DIESEL_IDS = new Set(DIESEL_AREAS.map(dieselSeriesId));

/** The rule for a series the product uses, or undefined for a series it does not use. */
export function seriesRule(seriesId: string): SeriesRule | undefined {
  if (DIESEL_IDS.has(seriesId)) return DIESEL;
  return EXACT[seriesId] ?? PATTERNS.find(([pattern]) => pattern.test(seriesId))?.[1];
}
