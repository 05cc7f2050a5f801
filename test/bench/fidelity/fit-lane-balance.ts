import { defined } from "../../support/defined.ts";

/**
 * How RATE_MODEL.laneBalance was fitted (docs/rate-model.md, "Lane balance"); `npm run fidelity -- --fit` reruns it.
 *
 * Input: the fit weeks' lane-weeks only, each as log(USDA midpoint / cost basis without the lane-balance factor).
 * Tukey's median polish splits that log error into an inbound effect per destination market, an outbound effect
 * per origin market and an effect per report week, each the median of what the other two leave; 30 sweeps. The week
 * effects are the market's level that week (USDA's April rates sat 15-20 % under June's) and are dropped: a cost
 * basis has no way to know them. The market effects are then centred so that the factor averages 1 (in logs) over
 * the fit lane-weeks, so they only move cost between lanes. What the lanes share is the head-haul level: the median,
 * over the fit lane-weeks, of what the rounded multipliers leave of the log error. Every USDA lane leaves a produce
 * shipping district, so the level is what such a load costs over the national cost basis.
 * A group with fewer than MIN_LANE_WEEKS fitted lane-weeks gets no multiplier (1); the level still applies.
 */
/**
 * One fit lane-week. The shipped factor groups origins and destinations by freight market; the fidelity run also tries
 * finer groups (USDA's shipping districts and destination cities), so a group is any name.
 */
export interface LaneWeekError {
  week: string;
  /** The origin's group (a FreightMarket for the shipped factor), or null for none. */
  origin: string | null;
  /** The destination's group, or null for none. */
  destination: string | null;
  /** log(USDA midpoint / cost basis without lane balance). */
  logError: number;
}

export interface FittedLaneBalance {
  /** What a load out of a shipping district pays over the cost basis, the groups' multipliers aside. */
  level: number;
  outbound: Record<string, number>;
  inbound: Record<string, number>;
  /** Dropped week effects, log points, for the docs. */
  weeks: Record<string, number>;
  lanesPerMarket: { outbound: Record<string, number>; inbound: Record<string, number> };
}

const SWEEPS = 30;
const MIN_LANE_WEEKS = 6;

/** The middle value, or the mean of the two middle values. */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? defined(sorted[mid], "sorted[mid]")
    : (defined(sorted[mid - 1], "sorted[mid - 1]") + defined(sorted[mid], "sorted[mid]")) / 2;
};

type Term = "inbound" | "outbound" | "week";
const keyOf: Record<Term, (row: LaneWeekError) => string | null> = {
  inbound: (row) => row.destination,
  outbound: (row) => row.origin,
  week: (row) => row.week,
};

export function fitLaneBalance(rows: LaneWeekError[]): FittedLaneBalance {
  const effects: Record<Term, Map<string, number>> = { inbound: new Map(), outbound: new Map(), week: new Map() };
  const effectOf = (term: Term, row: LaneWeekError) => {
    const key = keyOf[term](row);
    return key === null ? 0 : (effects[term].get(key) ?? 0);
  };
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (const term of ["inbound", "outbound", "week"] as const) {
      const residuals = new Map<string, number[]>();
      for (const row of rows) {
        const key = keyOf[term](row);
        if (key === null) continue;
        const others = (["inbound", "outbound", "week"] as const)
          .filter((t) => t !== term)
          .reduce((sum, t) => sum + effectOf(t, row), 0);
        residuals.set(key, [...(residuals.get(key) ?? []), row.logError - others]);
      }
      for (const [key, values] of residuals) effects[term].set(key, median(values));
    }
  }
  const supported = (term: "inbound" | "outbound") => {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const key = keyOf[term](row);
      if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  const fitted = (term: "inbound" | "outbound") => {
    const counts = supported(term);
    const kept = (key: string | null) => key !== null && (counts.get(key) ?? 0) >= MIN_LANE_WEEKS;
    const centre = rows.reduce((sum, row) => sum + (kept(keyOf[term](row)) ? effectOf(term, row) : 0), 0) / rows.length;
    const factors: Record<string, number> = {};
    for (const [key, effect] of [...effects[term]].sort(([a], [b]) => a.localeCompare(b))) {
      if (kept(key)) factors[key] = Math.round(Math.exp(effect - centre) * 100) / 100;
    }
    return { factors, counts: Object.fromEntries(counts) };
  };
  const outbound = fitted("outbound");
  const inbound = fitted("inbound");
  const multiplier = (factors: Record<string, number>, key: string | null) => (key === null ? 1 : (factors[key] ?? 1));
  const level = Math.exp(
    median(
      rows.map(
        (row) =>
          row.logError -
          Math.log(multiplier(outbound.factors, row.origin)) -
          Math.log(multiplier(inbound.factors, row.destination)),
      ),
    ),
  );
  return {
    level: Math.round(level * 100) / 100,
    outbound: outbound.factors,
    inbound: inbound.factors,
    weeks: Object.fromEntries(
      [...effects.week]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([week, effect]) => [week, Math.round(effect * 1000) / 1000]),
    ),
    lanesPerMarket: { outbound: outbound.counts, inbound: inbound.counts },
  };
}
