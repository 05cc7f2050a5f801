/**
 * The capacity pressure index: every input measured as of the view, turned into a signal in [-1, 1]
 * (+1 tight), weighted by its importance and its freshness, and averaged onto -100..+100.
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

/** The latest numerator/denominator ratio against the ratio's mean over the `months` before it, in percent. */
function ratioToTrend(view: ReferenceView, seriesId: string, denominatorId: string, months: number): Measurement {
  const latest = view.latest(seriesId);
  if (!latest) return { missing: `no ${seriesId} observation on or before ${view.asOf}`, used: [] };
  const from = shiftDate(latest.observedOn, { months: -months });
  const denominators = new Map(view.history(denominatorId, from).map((o) => [o.observedOn, o]));
  const pairs = view.history(seriesId, from).flatMap((o) => {
    const d = denominators.get(o.observedOn);
    return d && d.value !== 0 ? [{ numerator: o, denominator: d, ratio: o.value / d.value }] : [];
  });
  const current = pairs.at(-1);
  if (!current || current.numerator.observedOn !== latest.observedOn) {
    return { latest, missing: `no ${denominatorId} observation for ${latest.observedOn} to divide by`, used: [latest] };
  }
  const earlier = pairs.slice(0, -1);
  if (earlier.length < months * 0.75)
    return {
      latest,
      missing: `fewer than ${Math.ceil(months * 0.75)} months of both series before ${latest.observedOn}`,
      used: [latest],
    };
  const norm = earlier.reduce((sum, p) => sum + p.ratio, 0) / earlier.length;
  return {
    latest,
    measured: round((current.ratio / norm - 1) * 100, 2),
    basis: `${seriesId}/${denominatorId} ${round(current.ratio, 4)} on ${latest.observedOn} against its mean ${round(norm, 4)} over ${earlier.length} months`,
    used: pairs.flatMap((p) => [p.numerator, p.denominator]),
  };
}

function monthlyMean(view: ReferenceView, seriesId: string): Measurement {
  const latest = view.latest(seriesId);
  if (!latest) return { missing: `no ${seriesId} observation on or before ${view.asOf}`, used: [] };
  const window = view.history(seriesId, shiftDate(latest.observedOn, { months: -2 }));
  const mean = window.reduce((sum, o) => sum + o.value, 0) / window.length;
  return {
    latest,
    measured: round(mean, 1),
    basis: `mean of ${window.length} month(s) from ${window[0]!.observedOn}`,
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
  const newest = latest.observations.at(-1)!;
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
  const edition = wages.reduce((newest, o) => (o.observedOn > newest ? o.observedOn : newest), wages[0]!.observedOn);
  const sameEdition = wages.filter((o) => o.observedOn === edition);
  const national = view.history(NATIONAL_TRUCK_DRIVER_WAGE_SERIES, edition).find((o) => o.observedOn === edition);
  if (!national)
    return { missing: `no U.S. OEWS 53-3032 median wage for the ${edition} edition to compare with`, used: [] };
  const areaMedian = sameEdition.reduce((sum, o) => sum + o.value, 0) / sameEdition.length;
  return {
    seriesId: sameEdition.length === 1 ? sameEdition[0]!.seriesId : "OEUS<FIPS>00000000000053303208",
    latest: sameEdition.at(-1)!,
    measured: round((areaMedian / national.value - 1) * 100, 2),
    basis: `${sameEdition.length === 1 ? "median" : `mean of ${sameEdition.length} state medians`} ${round(areaMedian, 2)} USD/h against the U.S. median ${national.value} (${edition})`,
    used: [...sameEdition, national],
  };
}

function measure(view: ReferenceView, id: PressureInputId, spec: PressureInputSpec, area: Area): Measurement {
  const how = spec.measure;
  switch (how.kind) {
    case "change_percent":
      return percentChange(view, spec.seriesId!, how.months);
    case "ratio_to_trend":
      return ratioToTrend(view, spec.seriesId!, how.denominatorSeriesId, how.months);
    case "monthly_mean":
      return monthlyMean(view, spec.seriesId!);
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
  reading.signal = round(clamp(reading.measured / spec.fullSignalAt) * spec.polarity, 3);
  if (reading.freshness === "EXPIRED") {
    reading.missing = `latest figure ${reading.latest!.observedOn} is ${reading.ageDays} days old (counts up to ${spec.freshDays * CAPACITY_MODEL.freshness.value.expiredAfterFreshMultiple})`;
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
      .map((r) => [r.id, round((scale * r.effectiveWeight * r.signal!) / countedWeight, 1)] as const),
  );
  const value = round(
    [...contributions.values()].reduce((sum, c) => sum + c, 0),
    0,
  );
  return { value, label: labelOf(value), coverage, freshCoverage, readings, contributions };
}
