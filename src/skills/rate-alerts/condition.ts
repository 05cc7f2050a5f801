import type { Static } from "@sinclair/typebox";
import { errors, type FieldProblem } from "../../errors.ts";
import { dieselPrice } from "../../reference/readings/diesel.ts";
import { DIESEL_REGIONS } from "../../reference/geo/regions.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import type { FactorVersion } from "../../receipts/format.ts";
import { beforeData, distinctFactors, round, type Equipment } from "../kit.ts";
import { priceLane, type Mode } from "../rate-lookup/index.ts";
import { LANE_METRICS } from "./constants.ts";
import type { conditionSchema } from "./schema.ts";

export type Condition = Static<typeof conditionSchema>;

const LANE_FIELDS = ["origin", "destination", "equipment", "mode", "miles", "include_fuel_surcharge"] as const;

/** The fields a metric needs and the ones it cannot use, named as in the request. */
export function checkConditionFields(condition: Condition, prefix = "condition"): void {
  const lane = LANE_METRICS.includes(condition.metric);
  const needed = lane ? (["origin", "destination", "equipment"] as const) : (["region"] as const);
  const foreign = lane ? (["region"] as const) : LANE_FIELDS;
  const problems: FieldProblem[] = [
    ...needed
      .filter((field) => condition[field] === undefined)
      .map((field) => ({ field: `${prefix}.${field}`, problem: `is required for ${condition.metric}` })),
    ...foreign
      .filter((field) => condition[field] !== undefined)
      .map((field) => ({ field: `${prefix}.${field}`, problem: `does not apply to ${condition.metric}` })),
  ];
  if (problems.length > 0) throw errors.invalidRequest(problems);
}

export interface Measurement {
  value: number;
  factorVersions: FactorVersion[];
  /** The request rate-lookup would answer with this value, for lane metrics (reproduce it there). */
  laneRequest?: Record<string, unknown>;
}

/**
 * The watched figure as of the view. Lane metrics go through rate-lookup's own pricing, so a lane
 * rate-lookup refuses (unknown place, impossible road) is refused here too, with the same error.
 */
export function measure(condition: Condition, view: ReferenceView, prefix = "condition"): Measurement {
  if (condition.metric === "rate_per_mile" || condition.metric === "total_cost") {
    const { origin, destination } = condition;
    if (origin === undefined || destination === undefined)
      throw new Error(`a ${condition.metric} condition names its lane once checkConditionFields passed it`);
    const laneRequest = {
      origin,
      destination,
      equipment: condition.equipment as Equipment,
      ...(condition.mode !== undefined && { mode: condition.mode as Mode }),
      ...(condition.miles !== undefined && { miles: condition.miles }),
      ...(condition.include_fuel_surcharge !== undefined && {
        include_fuel_surcharge: condition.include_fuel_surcharge,
      }),
    };
    const priced = priceLane(laneRequest, view, (field) => `${prefix}.${field}`);
    return {
      value: priced.answer[condition.metric],
      factorVersions: distinctFactors(priced.used),
      laneRequest: { ...laneRequest, as_of: view.asOf },
    };
  }
  const { region } = condition;
  if (region === undefined)
    throw new Error(`a ${condition.metric} condition names its region once checkConditionFields passed it`);
  const area = DIESEL_REGIONS[region];
  const latest = dieselPrice(view, area);
  if (!latest) throw beforeData("diesel price", view.asOf);
  if (condition.metric === "diesel_price") {
    return { value: latest.observation.value, factorVersions: distinctFactors([latest.observation]) };
  }
  const previous = previousWeek(view, latest.observation);
  return {
    value: round(((latest.observation.value - previous.value) / previous.value) * 100, 2),
    factorVersions: distinctFactors([previous, latest.observation]),
  };
}

/** The same series' figure from the week before, as the view knows it. */
function previousWeek(view: ReferenceView, latest: Observation): Observation {
  const history = view.history(latest.seriesId);
  const before = history.filter((observation) => observation.observedOn < latest.observedOn).at(-1);
  if (!before) throw beforeData("earlier weekly diesel price", latest.observedOn);
  return before;
}
