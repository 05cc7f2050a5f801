/**
 * The capacity pressure index: every input measured as of the view, turned into a signal in [-1, 1]
 * (+1 tight), weighted by its importance and its freshness, and averaged onto -100..+100. Long monthly
 * series count by their standard score against their own past ten years, so the index's own history spans
 * loose to tight (docs/carrier-capacity.md).
 */
import { daysBetween } from "../../dates.ts";
import { stateInfo, type StateCode } from "../../reference/geo/regions.ts";
import { shiftDate } from "../../reference/series/series-stats.ts";
import { NATIONAL_TRUCK_DRIVER_WAGE_SERIES, stateTruckDriverWageSeries } from "../../reference/series/series-ids.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import { round } from "../kit.ts";
import type { Area } from "./area.ts";
import { latestCensusPair } from "./census.ts";
import {
  CAPACITY_MODEL,
  PRESSURE_INPUT_IDS,
  type CapacityLabel,
  type PressureInputId,
  type PressureInputSpec,
} from "./constants.ts";
import { changeOver } from "./figures.ts";

export type Freshness = "FRESH" | "STALE" | "EXPIRED";

/** One input as measured; `measured` is undefined when the data does not allow the measure. */
export interface InputReading {
  id: PressureInputId;
  spec: PressureInputSpec;
  seriesId: string;
  /** The newest figure the measure rests on, and its date. */
  latest?: Observation;
  measured?: number;
  /** For inputs scaled against their own history: how many standard deviations `measured` is from its mean there. */
  standardScore?: number;
  /** What was compared, in words ("against 2025-06-01", "mean of 3 months"). */
  basis?: string;
  ageDays?: number;
  freshness?: Freshness;
  signal?: number;
  /** The weight it counts with: full, halved when stale, 0 when expired or unmeasured. */
  effectiveWeight: number;
  /** Why it does not count, when it does not. */
  missing?: string;
  used: Observation[];
}

export interface PressureIndex {
  value: number | null;
  label: CapacityLabel | null;
  /** Share of the applicable inputs' weight that counted, stale or fresh. */
  coverage: number;
  /** Share of the applicable inputs' weight that counted with fresh figures. */
  freshCoverage: number;
  readings: InputReading[];
  /** Index points each counted input adds (they sum to the value). */
  contributions: Map<PressureInputId, number>;
}

const clamp = (value: number) => Math.max(-1, Math.min(1, value));

function freshnessOf(ageDays: number, spec: PressureInputSpec): Freshness {
  if (ageDays <= spec.freshDays) return "FRESH";
  return ageDays <= spec.freshDays * CAPACITY_MODEL.freshness.value.expiredAfterFreshMultiple ? "STALE" : "EXPIRED";
}

type Measurement = Pick<InputReading, "latest" | "measured" | "basis" | "missing"> & {
  used: Observation[];
  seriesId?: string;
};

function percentChange(view: ReferenceView, seriesId: string, months: number): Measurement {
  const latest = view.latest(seriesId);
  if (!latest) return { missing: `no ${seriesId} observation on or before ${view.asOf}`, used: [] };
  const change = changeOver(view, latest, months);
  if (!change)
    return {
      latest,
      missing: `no ${seriesId} observation ${months} months before ${latest.observedOn} to compare with`,
      used: [latest],
    };
  return {
    latest,
    measured: change.percent,
    basis: `${latest.value} against ${change.from.value} on ${change.from.observedOn}`,
    used: [latest, change.from],
  };
}

const monthOf = (date: string) => date.slice(0, 7);

/**
 * The same percent change measured at every month of the `window` months before `latest`, from the figures
 * the view holds: the history an own-history input's latest move is judged against.
 */
function pastChanges(view: ReferenceView, latest: Observation, months: number, window: number): number[] {
  const firstBase = shiftDate(latest.observedOn, { months: -(window + months) });
  const history = view.history(latest.seriesId, firstBase);
  const byMonth = new Map(history.map((o) => [monthOf(o.observedOn), o.value]));
  const windowStart = shiftDate(latest.observedOn, { months: -window });
  return history.flatMap((o) => {
    if (o.observedOn < windowStart || o.observedOn >= latest.observedOn) return [];
    const base = byMonth.get(monthOf(shiftDate(o.observedOn, { months: -months })));
    return base ? [(o.value / base - 1) * 100] : [];
  });
}

type Scaled = { ratio: number; standardScore?: number; note?: string } | { ratio?: undefined; missing: string };

/** measured as a share of a full-strength move, before clamping and polarity; or why it cannot be judged. */
function scaled(view: ReferenceView, spec: PressureInputSpec, measured: number, latest?: Observation): Scaled {
  const { scale, measure } = spec;
  if (scale.kind === "fixed") return { ratio: measured / scale.fullSignalAt };
  if (measure.kind !== "change_percent" || !latest)
    throw new Error(`${spec.name}: own-history scaling needs a percent change of a series`);
  const past = pastChanges(view, latest, measure.months, scale.months);
  if (past.length < scale.minMonths)
    return {
      missing: `${past.length} months of its own history before ${latest.observedOn} to judge the move against (needs ${scale.minMonths})`,
    };
  const mean = past.reduce((sum, x) => sum + x, 0) / past.length;
  const sd = Math.sqrt(past.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (past.length - 1));
  if (sd === 0) return { missing: `its own history before ${latest.observedOn} never moved` };
  const standardScore = round((measured - mean) / sd, 2);
  return {
    standardScore,
    ratio: standardScore / scale.fullSignalAtSd,
    note: `${standardScore > 0 ? "+" : ""}${standardScore} standard deviations from its mean of ${round(mean, 2)} over the ${past.length} months before`,
  };
}

function monthlyMean(view: ReferenceView, seriesId: string): Measurement {
  const latest = view.latest(seriesId);
  if (!latest) return { missing: `no ${seriesId} observation on or before ${view.asOf}`, used: [] };
  const window = view.history(seriesId, shiftDate(latest.observedOn, { months: -2 }));
  const [oldest] = window;
  if (!oldest) throw new Error(`${seriesId}: the window ending at the latest figure lacks that figure`);
  const mean = window.reduce((sum, o) => sum + o.value, 0) / window.length;
  return {
    latest,
    measured: round(mean, 1),
    basis: `mean of ${window.length} month(s) from ${oldest.observedOn}`,
    used: window,
  };
}

const CENSUS_POWER_UNITS_SERIES = "FMCSA_CENSUS_POWER_UNITS_<ST>_<OP>";

function censusChange(view: ReferenceView, area: Area): Measurement {
  const { latest, earlier } = latestCensusPair(view, area, 6);
  if (!latest)
    return {
      seriesId: CENSUS_POWER_UNITS_SERIES,
      missing: "no FMCSA census loaded (waybill data import fmcsa)",
      used: [],
    };
  const newest = latest.observations.at(-1);
  if (!newest) throw new Error(`the census of ${latest.date} was found through its observations, yet has none`);
  if (!earlier)
    return {
      seriesId: CENSUS_POWER_UNITS_SERIES,
      latest: newest,
      missing: `one census (${latest.date}); its change needs another at least 6 months older`,
      used: [],
    };
  if (earlier.total.POWER_UNITS === 0)
    return {
      seriesId: CENSUS_POWER_UNITS_SERIES,
      latest: newest,
      missing: "no for-hire power units in the area in the earlier census",
      used: [],
    };
  const percent = ((latest.total.POWER_UNITS - earlier.total.POWER_UNITS) / earlier.total.POWER_UNITS) * 100;
  return {
    seriesId: CENSUS_POWER_UNITS_SERIES,
    latest: { ...newest, value: latest.total.POWER_UNITS },
    measured: round(percent, 2),
    basis: `${latest.total.POWER_UNITS} power units on ${latest.date} against ${earlier.total.POWER_UNITS} on ${earlier.date}`,
    used: [...latest.observations, ...earlier.observations],
  };
}

/** The area's OEWS median wage against the national median of the same edition (states' newest edition). */
function wagePremium(view: ReferenceView, states: readonly StateCode[]): Measurement {
  const wages = states.flatMap((state) => view.latest(stateTruckDriverWageSeries(stateInfo(state).fips)) ?? []);
  if (wages.length === 0) return { missing: "no OEWS 53-3032 median wage for the area", used: [] };
  const edition = wages.map((o) => o.observedOn).reduce((newest, date) => (date > newest ? date : newest));
  const sameEdition = wages.filter((o) => o.observedOn === edition);
  const national = view.history(NATIONAL_TRUCK_DRIVER_WAGE_SERIES, edition).find((o) => o.observedOn === edition);
  if (!national)
    return { missing: `no U.S. OEWS 53-3032 median wage for the ${edition} edition to compare with`, used: [] };
  const [first] = sameEdition;
  const last = sameEdition.at(-1);
  if (!first || !last) throw new Error(`the ${edition} edition came from the wages, so some wage has it`);
  const areaMedian = sameEdition.reduce((sum, o) => sum + o.value, 0) / sameEdition.length;
  return {
    seriesId: sameEdition.length === 1 ? first.seriesId : "OEUS<FIPS>00000000000053303208",
    latest: last,
    measured: round((areaMedian / national.value - 1) * 100, 2),
    basis: `${sameEdition.length === 1 ? "median" : `mean of ${sameEdition.length} state medians`} ${round(areaMedian, 2)} USD/h against the U.S. median ${national.value} (${edition})`,
    used: [...sameEdition, national],
  };
}

/** The series a single-series measure reads; the model declares one for every such input. */
function seriesOf(id: PressureInputId, spec: PressureInputSpec): string {
  if (!spec.seriesId) throw new Error(`capacity input ${id} is measured from one series but names none`);
  return spec.seriesId;
}

function measure(view: ReferenceView, id: PressureInputId, spec: PressureInputSpec, area: Area): Measurement {
  const how = spec.measure;
  switch (how.kind) {
    case "change_percent":
      return percentChange(view, seriesOf(id, spec), how.months);
    case "monthly_mean":
      return monthlyMean(view, seriesOf(id, spec));
    case "census_change":
      return censusChange(view, area);
    case "area_premium":
      return wagePremium(view, area.states);
  }
  throw new Error(`unknown measure for ${id}`);
}

/** Inputs that say nothing about the asked area: the wage premium of the whole country against itself. */
const applies = (id: PressureInputId, area: Area) => !(id === "area_driver_wage" && area.kind === "NATIONAL");

export function readInput(view: ReferenceView, id: PressureInputId, area: Area): InputReading {
  const spec: PressureInputSpec = CAPACITY_MODEL.inputs.value[id];
  const measurement = measure(view, id, spec, area);
  const { seriesId, ...measured } = measurement;
  const reading: InputReading = {
    id,
    spec,
    seriesId: spec.seriesId ?? seriesId ?? measurement.latest?.seriesId ?? "",
    effectiveWeight: 0,
    ...measured,
  };
  if (reading.latest) {
    reading.ageDays = daysBetween(reading.latest.observedOn, view.asOf);
    reading.freshness = freshnessOf(reading.ageDays, spec);
  }
  if (reading.measured === undefined) return reading;
  const scale = scaled(view, spec, reading.measured, reading.latest);
  if (scale.ratio === undefined) {
    reading.missing = scale.missing;
    return reading;
  }
  reading.standardScore = scale.standardScore;
  if (scale.note) reading.basis = `${reading.basis}; ${scale.note}`;
  reading.signal = round(clamp(scale.ratio) * spec.polarity, 3);
  if (reading.freshness === "EXPIRED") {
    // Freshness is only judged from a latest figure.
    if (!reading.latest) throw new Error(`capacity input ${id} is EXPIRED without a latest figure`);
    reading.missing = `latest figure ${reading.latest.observedOn} is ${reading.ageDays} days old (counts up to ${spec.freshDays * CAPACITY_MODEL.freshness.value.expiredAfterFreshMultiple})`;
    return reading;
  }
  reading.effectiveWeight =
    spec.weight * (reading.freshness === "FRESH" ? 1 : CAPACITY_MODEL.freshness.value.staleWeightFactor);
  return reading;
}

export function labelOf(value: number): CapacityLabel {
  const { tightAbove, looseBelow } = CAPACITY_MODEL.index.value;
  return value > tightAbove ? "TIGHT" : value < looseBelow ? "LOOSE" : "BALANCED";
}

/** The index as of the view for the area; null value when too little of the weight could be measured. */
export function pressureIndex(view: ReferenceView, area: Area): PressureIndex {
  const readings = PRESSURE_INPUT_IDS.filter((id) => applies(id, area)).map((id) => readInput(view, id, area));
  const applicableWeight = readings.reduce((sum, r) => sum + r.spec.weight, 0);
  const shareOf = (counts: (r: InputReading) => boolean) =>
    readings.filter(counts).reduce((sum, r) => sum + r.spec.weight, 0) / applicableWeight;
  const coverage = shareOf((r) => r.effectiveWeight > 0);
  const freshCoverage = shareOf((r) => r.effectiveWeight > 0 && r.freshness === "FRESH");
  const countedWeight = readings.reduce((sum, r) => sum + r.effectiveWeight, 0);
  const { scale, minCoverage } = CAPACITY_MODEL.index.value;
  if (coverage < minCoverage || countedWeight === 0)
    return { value: null, label: null, coverage, freshCoverage, readings, contributions: new Map() };
  const contributions = new Map(
    readings
      .filter((r) => r.effectiveWeight > 0)
      .map((r) => {
        // A weight is only given after the signal is set (readInput).
        if (r.signal === undefined) throw new Error(`capacity input ${r.id} has a weight but no signal`);
        return [r.id, round((scale * r.effectiveWeight * r.signal) / countedWeight, 1)] as const;
      }),
  );
  const value = round(
    [...contributions.values()].reduce((sum, c) => sum + c, 0),
    0,
  );
  return { value, label: labelOf(value), coverage, freshCoverage, readings, contributions };
}
