/**
 * The carrier-capacity model: which public series feed the capacity pressure index, how each is
 * measured, weighted and aged, and how the index becomes a label. One versioned table; receipts
 * name `version` as `model_version`. Method and reasons in docs/carrier-capacity.md.
 *
 * The index reads the balance of freight against trucks from the shipper's side: +100 is as tight as
 * the scale goes (freight growing, capacity shrinking, prices rising), -100 as loose.
 */
import { ATA_TONNAGE_SA, CASS_SHIPMENTS_INDEX, FMCSA_NET_CHANGE_CARRIERS } from "../../reference/series/series-ids.ts";

export const PRESSURE_INPUT_IDS = [
  "truck_employment",
  "freight_tsi",
  "industrial_production",
  "cass_shipments",
  "ata_tonnage",
  "carrier_net_change",
  "census_power_units",
  "truck_freight_ppi",
  "area_driver_wage",
] as const;
export type PressureInputId = (typeof PRESSURE_INPUT_IDS)[number];

export const CAPACITY_LABELS = ["LOOSE", "BALANCED", "TIGHT"] as const;
export type CapacityLabel = (typeof CAPACITY_LABELS)[number];

export type Side = "demand" | "supply" | "price" | "area";

/**
 * How an input's signal is measured:
 * - `change_percent`: the latest value against the one `months` earlier, in percent;
 * - `monthly_mean`: the mean of the observations of the last 3 months (a flow, e.g. carriers added per month);
 * - `census_change`: the area's census power units against the census loaded at least 6 months earlier, in percent;
 * - `area_premium`: the area's OEWS driver median wage against the national median, in percent.
 */
export type Measure =
  | { kind: "change_percent"; months: number }
  | { kind: "monthly_mean" }
  | { kind: "census_change" }
  | { kind: "area_premium" };

/**
 * - `fixed`: the measured move that counts as a full-strength signal (±1), smaller moves pro rata; for inputs
 *   whose published history is too short to judge a move against (Cass, ATA, FMCSA counts, census, OEWS);
 * - `own_history`: the measure as a standard score against the same measure over the `months` before it (at
 *   least `minMonths` of them), full strength at `fullSignalAtSd` standard deviations. A move counts by how
 *   unusual it is for that series, so a series' structural drift or its own volatility does not pass for
 *   tightness.
 */
export type SignalScale =
  | { kind: "fixed"; fullSignalAt: number }
  | { kind: "own_history"; months: number; minMonths: number; fullSignalAtSd: number };

/** Standardisation window shared by every long monthly series: ten years, at least three. */
const OWN_HISTORY: SignalScale = { kind: "own_history", months: 120, minMonths: 36, fullSignalAtSd: 2 };

export interface PressureInputSpec {
  name: string;
  side: Side;
  /** The series, or undefined when it depends on the area (census, OEWS). */
  seriesId?: string;
  measure: Measure;
  unit: string;
  /** How the measure becomes a signal in [-1, 1]. */
  scale: SignalScale;
  /** +1: a rise tightens capacity; -1: a rise loosens it. */
  polarity: 1 | -1;
  weight: number;
  /** Days from the latest observation to as_of within which the input counts at full weight. */
  freshDays: number;
  rationale: string;
}

const MONTHLY_FRESH_DAYS = 150;

export const CAPACITY_MODEL = {
  version: "carrier-capacity-2026.11.2",

  inputs: {
    value: {
      truck_employment: {
        name: "BLS CES truck transportation employment",
        side: "supply",
        seriesId: "CES4348400001",
        measure: { kind: "change_percent", months: 12 },
        unit: "percent year on year",
        scale: OWN_HISTORY,
        polarity: 1,
        weight: 0.2,
        freshDays: MONTHLY_FRESH_DAYS,
        rationale:
          "Payroll jobs at trucking firms follow what hauling pays: fleets hire drivers when loads wait for trucks (2018, 2021-22) " +
          "and shed them when trucks wait for loads (2019 H2, 2023-24). Read as the market's answer, not as capacity removed: jobs " +
          "cut in a soft market leave the trucks with owner-operators and private fleets.",
      },
      freight_tsi: {
        name: "BTS Freight Transportation Services Index",
        side: "demand",
        seriesId: "TSIFRGHT",
        measure: { kind: "change_percent", months: 12 },
        unit: "percent year on year",
        scale: OWN_HISTORY,
        polarity: 1,
        weight: 0.15,
        freshDays: MONTHLY_FRESH_DAYS,
        rationale:
          "For-hire freight moved, all modes led by trucking: the broadest monthly measure of freight volume, compared year on year.",
      },
      industrial_production: {
        name: "Industrial production (Federal Reserve, INDPRO)",
        side: "demand",
        seriesId: "INDPRO",
        measure: { kind: "change_percent", months: 12 },
        unit: "percent year on year",
        scale: OWN_HISTORY,
        polarity: 1,
        weight: 0.1,
        freshDays: MONTHLY_FRESH_DAYS,
        rationale:
          "Goods made are goods to haul: the demand behind truckload freight, without the pipeline, rail and water parts of the TSI.",
      },
      cass_shipments: {
        name: "Cass Freight Index, shipments",
        side: "demand",
        seriesId: CASS_SHIPMENTS_INDEX,
        measure: { kind: "change_percent", months: 12 },
        unit: "percent year on year",
        scale: { kind: "fixed", fullSignalAt: 8 },
        polarity: 1,
        weight: 0.1,
        freshDays: MONTHLY_FRESH_DAYS,
        rationale:
          "Shipments paid through Cass by large shippers: a direct count of loads, not seasonally adjusted, so compared year on year.",
      },
      ata_tonnage: {
        name: "ATA for-hire truck tonnage, seasonally adjusted",
        side: "demand",
        seriesId: ATA_TONNAGE_SA,
        measure: { kind: "change_percent", months: 12 },
        unit: "percent year on year",
        scale: { kind: "fixed", fullSignalAt: 5 },
        polarity: 1,
        weight: 0.05,
        freshDays: MONTHLY_FRESH_DAYS,
        rationale:
          "Tonnage hauled by for-hire fleets; skewed to large contract carriers and slow to move, so a small weight.",
      },
      carrier_net_change: {
        name: "Net change of the for-hire carrier population (FMCSA authorities)",
        side: "supply",
        seriesId: FMCSA_NET_CHANGE_CARRIERS,
        measure: { kind: "monthly_mean" },
        unit: "carriers per month",
        scale: { kind: "fixed", fullSignalAt: 2000 },
        polarity: -1,
        weight: 0.05,
        freshDays: 120,
        rationale:
          "New for-hire authorities minus revocations: carriers leaving faster than they enter is capacity draining out (2023-2025), " +
          "the reverse is new capacity (2020-2022, when net additions ran at several thousand a month).",
      },
      census_power_units: {
        name: "For-hire power units in the area (FMCSA census)",
        side: "supply",
        measure: { kind: "census_change" },
        unit: "percent",
        scale: { kind: "fixed", fullSignalAt: 5 },
        polarity: -1,
        weight: 0.05,
        freshDays: 400,
        rationale:
          "Trucks registered by for-hire carriers based in the area, between two imported censuses at least 6 months apart.",
      },
      truck_freight_ppi: {
        name: "PPI truck transportation of freight",
        side: "price",
        seriesId: "WPU301",
        measure: { kind: "change_percent", months: 12 },
        unit: "percent year on year",
        scale: OWN_HISTORY,
        polarity: 1,
        weight: 0.25,
        freshDays: MONTHLY_FRESH_DAYS,
        rationale:
          "What carriers charge: prices rise when capacity is short (2018, 2021-22) and fall when it is not (2019, 2023). The heaviest " +
          "weight, as the one input that is itself the balance of supply and demand; year on year because the index is not seasonally " +
          "adjusted, and against its own history because trucking prices drift up with costs.",
      },
      area_driver_wage: {
        name: "Area truck-driver median wage against the U.S. median (BLS OEWS 53-3032)",
        side: "area",
        measure: { kind: "area_premium" },
        unit: "percent",
        scale: { kind: "fixed", fullSignalAt: 15 },
        polarity: 1,
        weight: 0.05,
        freshDays: 800,
        rationale:
          "Where drivers earn more than the national median, fleets compete for them: the one state-level figure public data gives for how " +
          "hard it is to add a truck there. Annual, so it shifts the area's level, not its direction.",
      },
    } satisfies Record<PressureInputId, PressureInputSpec>,
    source:
      "Weights, chosen before the history was read and not fitted to it, sum to 1: price 0.25, trucking jobs 0.2, freight " +
      "demand 0.4 (TSI 0.15, industrial production 0.1, Cass 0.1, ATA 0.05), carriers and trucks 0.1, area wage 0.05; see " +
      "docs/carrier-capacity.md for each choice.",
  },

  freshness: {
    value: { staleWeightFactor: 0.5, expiredAfterFreshMultiple: 3 },
    source:
      "An input older than its fresh window still counts at half weight (it is the newest figure there is) up to three windows; older " +
      "than that it is reported and left out.",
  },

  index: {
    value: { scale: 100, tightAbove: 20, looseBelow: -20, minCoverage: 0.4 },
    source:
      "Index = 100 × weighted mean of the counted inputs' signals (each in [-1, 1]). TIGHT above +20, LOOSE below -20, else BALANCED. " +
      "Under 40% of the applicable weight measurable (fresh or stale): no index (null) rather than a guess.",
  },

  historyMonths: {
    value: [3, 6, 12] as const,
    source: "The same index computed as of 3, 6 and 12 months earlier, with the figures observed by then.",
  },

  confidence: {
    value: { highCoverage: 0.75, mediumCoverage: 0.55 },
    source:
      "HIGH when at least 75% of the weight counted with fresh figures and a census is loaded; MEDIUM from 55%; LOW below. Without a census " +
      "the answer is at most MEDIUM: the area's own supply is then only known through OEWS employment.",
  },
} as const;
