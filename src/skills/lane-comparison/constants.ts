import { RATE_MODEL } from "../rate-lookup/index.ts";

/**
 * The lane-comparison skill's constants. Each lane is priced by the rate-lookup model, so the
 * version names both: a change to either cost model or to the ranking rules is a new version.
 */
export const LANE_COMPARISON_MODEL = {
  version: `lane-comparison-2026.11.1+${RATE_MODEL.version}`,

  laneCount: {
    value: { min: 2, max: 25 },
    source: "docs/api.md (Skills): 2 to 25 lanes; one request stays a few milliseconds and one receipt stays readable.",
  },

  sortMetrics: {
    value: ["rate_per_mile", "total_cost"] as const,
    source:
      "rate_per_mile (default) compares lanes of different lengths on cost per mile; total_cost compares what each load costs. " +
      "Ranks and deltas are taken on the chosen metric, from the rounded figures the answer shows.",
  },

  ranking: {
    value: "competition",
    source:
      "Standard competition ranking (1, 2, 2, 4): equal figures share a rank, so a repeated lane ranks with its twin; ties list in request order.",
  },
} as const;

export const SORT_METRICS = LANE_COMPARISON_MODEL.sortMetrics.value;
export type SortMetric = (typeof SORT_METRICS)[number];
