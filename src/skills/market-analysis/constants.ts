/**
 * The market-analysis model: which indicators, how each one's trend and z-score are measured, and how
 * they combine into one signal. One versioned table; receipts name `version` as `model_version`.
 *
 * The five conditions follow FTR's Trucking Conditions Index (freight volumes, freight rates, fleet
 * capacity, fuel price, financing: ftrintel.com/tci). FTR's weights are not public; Waybill's are its
 * own judgement, stated per indicator. The signal reads the market from the shipper's side:
 * TIGHTENING means capacity is getting scarcer relative to freight, so rates tend to rise.
 */

export const INDICATOR_IDS = [
  "truck_freight_ppi",
  "freight_tsi",
  "industrial_production",
  "truck_employment",
  "diesel",
  "wti_crude",
  "fed_funds",
] as const;
export type IndicatorId = (typeof INDICATOR_IDS)[number];

export const MARKET_SIGNALS = ["TIGHTENING", "BALANCED", "LOOSENING", "INSUFFICIENT_DATA"] as const;
export type MarketSignal = (typeof MARKET_SIGNALS)[number];

export type Frequency = "daily" | "weekly" | "monthly";

export interface IndicatorSpec {
  name: string;
  /** The series, or "regional" for diesel, whose series follows the request's region. */
  seriesId: string;
  unit: string;
  frequency: Frequency;
  /** Trend as a percent change, or in the series' own unit (percentage points for an interest rate). */
  trendMeasure: "percent" | "points";
  /** The trend (in trendMeasure units) that counts as a full-strength signal; smaller moves count pro rata. */
  fullSignalAt: number;
  /** +1: a rise tightens the truck market; -1: a rise loosens it. */
  polarity: 1 | -1;
  weight: number;
  rationale: string;
}

export const MARKET_MODEL = {
  version: "market-analysis-2026.11.1",

  trendLookbackMonths: {
    value: 3,
    source: "A quarter: long enough to see through monthly revisions and weekly noise, short enough to catch a turn.",
  },

  zScoreWindow: {
    value: { years: 3, minObservations: 8 },
    source:
      "The latest value against the observations of the 3 years before it (the latest itself excluded), sample standard " +
      "deviation; a freight cycle runs about 3 years. Fewer than 8 observations give no z-score.",
  },

  maxAgeDays: {
    value: { daily: 21, weekly: 21, monthly: 150 } satisfies Record<Frequency, number>,
    source:
      "An indicator older than this (from its observation date to as_of) is reported but left out of the signal. Monthly series " +
      "are dated the 1st and published 1-2.5 months later (FEDFUNDS, CES, PPI, INDPRO; TSI the slowest), so 150 days allows two " +
      "late releases; EIA diesel is weekly and FRED's WTI is posted within a week.",
  },

  indicators: {
    value: {
      truck_freight_ppi: {
        name: "PPI truck transportation of freight",
        seriesId: "WPU301",
        unit: "index Jun 2009=100",
        frequency: "monthly",
        trendMeasure: "percent",
        fullSignalAt: 2,
        polarity: 1,
        weight: 0.25,
        rationale:
          "Freight rates (FTR component): what carriers charge; rising prices are the market tightening. Heaviest weight: it is the outcome itself.",
      },
      freight_tsi: {
        name: "BTS Freight Transportation Services Index",
        seriesId: "TSIFRGHT",
        unit: "index 2000=100",
        frequency: "monthly",
        trendMeasure: "percent",
        fullSignalAt: 2.5,
        polarity: 1,
        weight: 0.2,
        rationale:
          "Freight volumes (FTR component): for-hire freight moved; more freight on the same fleet tightens it.",
      },
      industrial_production: {
        name: "Industrial production index",
        seriesId: "INDPRO",
        unit: "index 2017=100",
        frequency: "monthly",
        trendMeasure: "percent",
        fullSignalAt: 2,
        polarity: 1,
        weight: 0.15,
        rationale:
          "Goods output, the demand behind truck freight (FTR builds its freight forecast top-down from the economy).",
      },
      truck_employment: {
        name: "Truck transportation employment",
        seriesId: "CES4348400001",
        unit: "thousands",
        frequency: "monthly",
        trendMeasure: "percent",
        fullSignalAt: 1.5,
        polarity: -1,
        weight: 0.15,
        rationale:
          "Fleet capacity (FTR component): more drivers employed is more capacity; jobs leaving trucking is capacity leaving.",
      },
      diesel: {
        name: "EIA retail on-highway diesel",
        seriesId: "regional",
        unit: "USD/gal",
        frequency: "weekly",
        trendMeasure: "percent",
        fullSignalAt: 15,
        polarity: 1,
        weight: 0.1,
        rationale:
          "Fuel price (FTR component): dearer diesel squeezes small carriers out (FTR, Jan 2024: rising diesel may accelerate the " +
          "capacity drain among small carriers) and lifts all-in rates through surcharges.",
      },
      wti_crude: {
        name: "WTI crude oil spot",
        seriesId: "DCOILWTICO",
        unit: "USD/barrel",
        frequency: "daily",
        trendMeasure: "percent",
        fullSignalAt: 20,
        polarity: 1,
        weight: 0.05,
        rationale: "Leads retail diesel by a few weeks; small weight because it mostly repeats the diesel signal.",
      },
      fed_funds: {
        name: "Effective federal funds rate",
        seriesId: "FEDFUNDS",
        unit: "percent",
        frequency: "monthly",
        trendMeasure: "points",
        fullSignalAt: 0.75,
        polarity: -1,
        weight: 0.1,
        rationale:
          "Financing (FTR component): higher rates cool goods demand faster than they slow truck purchases, as in the 2022-2023 " +
          "hikes and freight recession; a cut works the other way.",
      },
    } satisfies Record<IndicatorId, IndicatorSpec>,
    source:
      "fullSignalAt is about 1.3-1.5 standard deviations of each indicator's 3-month change over the snapshot's history " +
      "(WPU301 1.5%, TSIFRGHT 1.9%, CES4348400001 1.1%, FEDFUNDS 0.56 points, U.S. diesel 11%); weights sum to 1.",
  },

  signal: {
    value: { threshold: 0.2, minCoverage: 0.5 },
    source:
      "Score = weighted mean of the fresh indicators' signals (each in [-1, 1]); TIGHTENING above +0.2, LOOSENING below -0.2, " +
      "else BALANCED. 0.2 is e.g. the PPI alone at +0.8 of a full move. Under half of the total weight fresh: INSUFFICIENT_DATA.",
  },
} as const;
