import type { Static } from "@sinclair/typebox";
import type { Observation } from "../../reference/storage/view.ts";
import { distinctFactors } from "../kit.ts";
import { round } from "../kit.ts";
import { priceLane, type RateLookupAnswer } from "../rate-lookup/index.ts";
import { defineSkill } from "../types.ts";
import { LANE_COMPARISON_MODEL, type SortMetric } from "./constants.ts";
import { rankCosts, type Delta, type RankedFigure } from "./ranking.ts";
import { laneComparisonInput, laneComparisonOutput } from "./schema.ts";

type Input = Static<typeof laneComparisonInput>;
type Output = Static<typeof laneComparisonOutput>;

/** Cents for total cost, a tenth of a cent for a per-mile rate: the precision rate-lookup answers with. */
const DECIMALS: Record<SortMetric, number> = { rate_per_mile: 3, total_cost: 2 };
const PERCENT_DECIMALS = 2;

export const laneComparisonSkill = defineSkill({
  name: "lane-comparison",
  minimumTier: "starter",
  description:
    "Compare 2 to 25 lanes, each priced exactly as rate-lookup prices it: ranked cheapest first by rate per mile or total cost, " +
    "with each lane's difference from the cheapest and from the mean, in USD and percent.",
  rest: { method: "POST", path: "/v1/lanes/compare" },
  input: laneComparisonInput,
  output: laneComparisonOutput,
  replayable: true,
  asOf: (input) => input.as_of,
  handler(input: Input, { data: view }) {
    const sortBy: SortMetric = input.sort_by ?? "rate_per_mile";
    const includeFuelSurcharge = input.include_fuel_surcharge ?? false;

    const used: Observation[] = [];
    const priced: RateLookupAnswer[] = input.lanes.map((lane, position) => {
      const result = priceLane(
        { ...lane, include_fuel_surcharge: includeFuelSurcharge },
        view,
        (field) => `lanes.${position}.${field}`,
      );
      used.push(...result.used);
      return result.answer;
    });

    const decimals = DECIMALS[sortBy];
    const roundDelta = (delta: Delta): Delta => ({
      absolute: round(delta.absolute, decimals),
      percent: round(delta.percent, PERCENT_DECIMALS),
    });
    // Ranking positions index the input's lanes, and `priced` holds one answer per lane in the same order.
    const laneAt = <T>(lanes: readonly T[], position: number): T => {
      const lane = lanes[position];
      if (lane === undefined) throw new Error(`ranking position ${position} is not one of the ${lanes.length} lanes`);
      return lane;
    };
    const withLabel = (position: number) => {
      const { label } = laneAt(input.lanes, position);
      return label === undefined ? {} : { label };
    };
    const extreme = (figure: RankedFigure) => ({
      position: figure.position,
      ...withLabel(figure.position),
      value: figure.value,
    });
    const ranking = rankCosts(priced.map((answer) => answer[sortBy]));

    const answer: Output = {
      as_of: view.asOf,
      sort_by: sortBy,
      include_fuel_surcharge: includeFuelSurcharge,
      lanes: ranking.ranked.map((figure) => {
        const lane = laneAt(priced, figure.position);
        return {
          rank: figure.rank,
          position: figure.position,
          ...withLabel(figure.position),
          origin: { input: lane.origin.input, city: lane.origin.city, state: lane.origin.state },
          destination: { input: lane.destination.input, city: lane.destination.city, state: lane.destination.state },
          equipment: lane.equipment,
          mode: lane.mode,
          miles: lane.miles,
          distance_method: lane.distance_method,
          rate_per_mile: lane.rate_per_mile,
          total_cost: lane.total_cost,
          confidence: { level: lane.confidence.level, score: lane.confidence.score },
          delta_vs_cheapest: roundDelta(figure.deltaVsCheapest),
          delta_vs_mean: roundDelta(figure.deltaVsMean),
        };
      }),
      summary: {
        cheapest: extreme(ranking.cheapest),
        most_expensive: extreme(ranking.mostExpensive),
        mean: round(ranking.mean, decimals),
      },
      factor_versions: distinctFactors(used),
      model_version: LANE_COMPARISON_MODEL.version,
    };
    return { answer, factorVersions: answer.factor_versions, modelVersion: LANE_COMPARISON_MODEL.version };
  },
});
