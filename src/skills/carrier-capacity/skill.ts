import type { Static } from "@sinclair/typebox";
import { errors } from "../../errors.ts";
import { shiftDate } from "../../reference/series/series-stats.ts";
import type { ReferenceView } from "../../reference/storage/view.ts";
import { beforeData, distinctFactors, round } from "../kit.ts";
import { defineSkill } from "../types.ts";
import { resolveArea, type Area } from "./area.ts";
import { CAPACITY_MODEL } from "./constants.ts";
import { earlierView, UsedObservations } from "./figures.ts";
import { pressureIndex, type InputReading, type PressureIndex } from "./pressure.ts";
import { carrierCapacityInput, carrierCapacityOutput } from "./schema.ts";
import { demandFigures, supplyFigures } from "./supply-demand.ts";

type Output = Static<typeof carrierCapacityOutput>;

const signed = (value: number) => `${value > 0 ? "+" : ""}${value}`;

function inputOut(reading: InputReading, index: PressureIndex): Output["capacity_pressure"]["inputs"][number] {
  const { spec } = reading;
  return {
    id: reading.id,
    name: spec.name,
    side: spec.side,
    series_id: reading.seriesId,
    latest: reading.latest ? { value: reading.latest.value, date: reading.latest.observedOn } : null,
    measured: reading.measured ?? null,
    unit: spec.unit,
    standard_score: reading.standardScore ?? null,
    basis: reading.basis ?? null,
    age_days: reading.ageDays ?? null,
    freshness: reading.freshness ?? null,
    signal: reading.signal ?? null,
    weight: spec.weight,
    effective_weight: round(reading.effectiveWeight, 3),
    contribution: index.contributions.get(reading.id) ?? null,
    missing: reading.missing ?? null,
    rationale: spec.rationale,
  };
}

/** Strongest contribution first, then what was left out and why. */
function reasonsOf(index: PressureIndex): string[] {
  const counted = index.readings
    .flatMap((r) => {
      const points = index.contributions.get(r.id);
      return points === undefined ? [] : [{ r, points }];
    })
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points))
    .map(({ r, points }) => {
      // Only a measured input gets a signal, so only a measured one contributes points.
      if (r.measured === undefined) throw new Error(`capacity input ${r.id} contributes without a measurement`);
      const leaning = points > 0 ? "toward tight" : points < 0 ? "toward loose" : "neutral";
      return `${r.spec.name}: ${signed(r.measured)} (${r.spec.unit}; ${r.basis}) ${leaning}, ${signed(points)} points${r.freshness === "STALE" ? `, at half weight: ${r.ageDays} days old` : ""}`;
    });
  const left = index.readings
    .filter((r) => r.effectiveWeight === 0)
    .map((r) => `${r.spec.name} left out: ${r.missing}`);
  if (index.value === null) {
    const { minCoverage } = CAPACITY_MODEL.index.value;
    left.unshift(
      `Only ${round(index.coverage * 100, 0)}% of the inputs' weight could be measured (at least ${minCoverage * 100}% needed): no index.`,
    );
  }
  return [...counted, ...left];
}

function confidenceOf(index: PressureIndex, censusLoaded: boolean): Output["confidence"] {
  const { highCoverage, mediumCoverage } = CAPACITY_MODEL.confidence.value;
  const fresh = index.freshCoverage;
  const reasons: string[] = [
    `${round(fresh * 100, 0)}% of the inputs' weight counted with fresh figures (${round(index.coverage * 100, 0)}% in all)`,
  ];
  let level: Output["confidence"]["level"] =
    fresh >= highCoverage ? "HIGH" : fresh >= mediumCoverage ? "MEDIUM" : "LOW";
  if (!censusLoaded) {
    reasons.push("no FMCSA census loaded: the area's carriers, power units and drivers are unknown");
    if (level === "HIGH") level = "MEDIUM";
  }
  const stale = index.readings.filter((r) => r.freshness === "STALE").map((r) => r.id);
  if (stale.length > 0) reasons.push(`stale inputs counted at half weight: ${stale.join(", ")}`);
  if (index.value === null) level = "LOW";
  return { level, reasons };
}

function missingOf(index: PressureIndex, supply: Output["supply"]): string[] {
  const missing = index.readings.filter((r) => r.effectiveWeight === 0).map((r) => `${r.id}: ${r.missing}`);
  if (!supply.census) missing.push("census: no FMCSA Company Census File imported (waybill data import fmcsa FILE)");
  if (supply.truck_drivers.states_without_employment.length > 0 && supply.truck_drivers.employment === null) {
    missing.push(
      `truck-driver employment (OEWS 53-3032) for ${supply.truck_drivers.states_without_employment.join(", ")}`,
    );
  }
  return missing;
}

function history(view: ReferenceView, area: Area): Output["capacity_pressure"]["history"] {
  return CAPACITY_MODEL.historyMonths.value.map((months) => {
    const asOf = shiftDate(view.asOf, { months: -months });
    const past = pressureIndex(earlierView(view, asOf), area);
    return { months_before: months, as_of: asOf, value: past.value, label: past.label };
  });
}

export const carrierCapacitySkill = defineSkill({
  name: "carrier-capacity",
  minimumTier: "starter",
  replayable: true,
  description:
    "Who can haul in an area and how tight it is: for-hire carriers, power units and drivers (FMCSA census, when imported), truck-driver " +
    "jobs and wages (BLS OEWS), truck employment (BLS CES), carrier entries and exits (FMCSA authorities), freight volumes (TSI, Cass, ATA, " +
    "industrial production), and a capacity pressure index from -100 (loose) to +100 (tight) with each input's contribution, and its value 3, " +
    "6 and 12 months earlier.",
  rest: { method: "POST", path: "/v1/carriers/capacity" },
  input: carrierCapacityInput,
  output: carrierCapacityOutput,
  asOf: (input) => input.as_of,
  handler(input, { data: view }) {
    if (input.area !== undefined && input.states !== undefined) {
      throw errors.invalidRequest([{ field: "states", problem: "give either area or states, not both" }]);
    }
    const area = resolveArea(input.area, input.states);
    const used = new UsedObservations();
    const index = pressureIndex(view, area);
    if (index.readings.every((r) => !r.latest)) throw beforeData("capacity figure", view.asOf);
    for (const reading of index.readings) if (reading.effectiveWeight > 0) used.add(...reading.used);
    const supply = supplyFigures(view, area, used);
    const demand = demandFigures(view, area, supply, used);

    const answer: Output = {
      as_of: view.asOf,
      area,
      equipment: input.equipment ?? "DRY_VAN",
      equipment_note:
        "No public series splits carriers or freight by trailer type, so the figures and the index are the same for every equipment type.",
      supply,
      demand,
      capacity_pressure: {
        value: index.value,
        label: index.label,
        scale:
          "-100 (loose: trucks looking for freight) .. +100 (tight: freight looking for trucks); TIGHT above +20, LOOSE below -20",
        coverage: round(index.coverage, 3),
        reasons: reasonsOf(index),
        inputs: index.readings.map((reading) => inputOut(reading, index)),
        history: history(view, area),
        method: CAPACITY_MODEL.index.source,
      },
      confidence: confidenceOf(index, supply.census !== null),
      missing: missingOf(index, supply),
      factor_versions: distinctFactors(used.all),
      model_version: CAPACITY_MODEL.version,
    };
    return { answer, factorVersions: answer.factor_versions, modelVersion: CAPACITY_MODEL.version };
  },
});
