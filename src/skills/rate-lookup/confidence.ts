import type { ResolvedPlace } from "../../reference/geo/places.ts";
import type { DieselReading } from "../../reference/readings/diesel.ts";
import type { WageReading } from "../../reference/readings/labor.ts";
import type { AmsMarketRate } from "../../reference/readings/market-anchor.ts";
import type { Mode } from "./constants.ts";
import { staleness, stalenessPenalty } from "../../reference/series/freshness.ts";
import type { Lane } from "./lane.ts";

/** The cost basis and USDA's market midpoint agree when they are within this share of the midpoint. */
export const AMS_AGREEMENT_BAND = 0.15;

export interface MarketComparison {
  rate: AmsMarketRate;
  /** (cost basis per load - USDA midpoint) / USDA midpoint. */
  spread: number;
}

export const agreesWithMarket = (comparison: MarketComparison): boolean =>
  Math.abs(comparison.spread) <= AMS_AGREEMENT_BAND;

export type ConfidenceLevel = "AMS_ANCHORED" | "HIGH" | "MEDIUM" | "LOW";

export interface ConfidenceInputs {
  asOf: string;
  diesel: DieselReading[];
  wage: WageReading;
  places: { field: "origin" | "destination"; place: ResolvedPlace }[];
  lane: Pick<Lane, "distanceMethod" | "fallbackReason" | "boundReason" | "connectorMiles" | "miles" | "detour">;
  mode: Mode;
  market?: MarketComparison;
}

export interface Confidence {
  level: ConfidenceLevel;
  score: number;
  reasons: string[];
}

/** Score thresholds for the levels below AMS_ANCHORED. */
const HIGH_FROM = 0.8;
const MEDIUM_FROM = 0.6;
/** Local-road legs longer than this are a guess worth a penalty. */
const LONG_CONNECTOR_MILES = 25;
/**
 * Truck routes run 1.04-1.3x the straight line (docs/rate-model.md, "Road miles"); a network route longer than
 * that, with no water in the way, may be going round a road the network lacks (Phoenix-San Diego without AZ-85).
 */
const LONG_ROUTE_RATIO = 1.3;

/**
 * Starts from 1 and subtracts a stated penalty for every weakness; each penalty becomes a reason.
 * The penalties are judgement calls sized by how much each weakness can move the rate:
 * a month-old diesel price moves fuel cost by a few percent, a misread place can move miles by hundreds.
 */
export function assessConfidence(inputs: ConfidenceInputs): Confidence {
  const reasons: string[] = [];
  let score = 1;
  const penalize = (amount: number, reason: string) => {
    score -= amount;
    reasons.push(`${reason} (-${amount.toFixed(2)})`);
  };

  // Each figure is judged against its own publication cycle (src/reference/series/freshness.ts).
  const penalizeStale = (what: string, observation: { seriesId: string; observedOn: string }) => {
    const stale = staleness(observation.seriesId, observation.observedOn, inputs.asOf);
    if (!stale) return;
    const { amount, reason } = stalenessPenalty(what, stale);
    penalize(amount, reason);
  };
  for (const reading of inputs.diesel) {
    penalizeStale(`diesel price for ${reading.areaName}`, reading.observation);
    if (reading.area !== reading.requestedArea)
      penalize(0.05, `no current regional diesel price; used ${reading.areaName}`);
  }

  if (inputs.wage.scope === "national")
    penalize(0.05, `no state wage for ${inputs.wage.state}; used the national median`);
  penalizeStale("driver wage survey", inputs.wage.observation);

  for (const { field, place } of inputs.places) {
    if (place.quality === "fuzzy")
      penalize(0.15, `${field} matched approximately (${place.editDistance} edits) to ${place.city}, ${place.state}`);
    if (place.quality === "city_only") penalize(0.05, `${field} had no state; took the most populous ${place.city}`);
  }

  const { lane } = inputs;
  if (lane.distanceMethod === "GREAT_CIRCLE_X_CIRCUITY") {
    penalize(
      0.15,
      `distance estimated from great-circle miles and a circuity factor: ${lane.fallbackReason ?? "road network not used"}`,
    );
  }
  if (lane.distanceMethod === "ROAD_NETWORK_BOUNDED") {
    penalize(0.1, `road miles bounded: ${lane.boundReason ?? "the network's route goes round a road it lacks"}`);
  }
  const connector = lane.connectorMiles && Math.max(lane.connectorMiles.origin, lane.connectorMiles.destination);
  if (connector !== undefined && connector > LONG_CONNECTOR_MILES) {
    penalize(
      0.05,
      `${Math.round(connector)} mi of local road to reach the Interstate network are estimated, not routed`,
    );
  }
  if (lane.detour && lane.detour.ratio > LONG_ROUTE_RATIO && !lane.detour.roundWater) {
    penalize(
      0.05,
      `the Interstate route is ${lane.detour.ratio.toFixed(2)}x the straight line (truck routes run up to ${LONG_ROUTE_RATIO}x): a shorter road the network lacks may exist`,
    );
  }
  if (lane.miles < 150)
    penalize(
      0.05,
      "short lane: the stop hours and empty miles are a large share of the rate and vary most between shippers",
    );
  else if (lane.miles > 2500) penalize(0.05, "very long lane: team drivers and backhaul pricing are outside the model");
  if (inputs.mode !== "FTL")
    penalize(0.1, `${inputs.mode} is priced with a fixed multiplier on the truckload cost basis`);

  score = Math.max(0, Math.min(1, score));
  const { market } = inputs;
  if (market) {
    const { rate, spread } = market;
    const said =
      `USDA AMS reefer rate ${rate.district} to ${rate.destination} on ${rate.low.observedOn}: $${rate.low.value}-${rate.high.value} per load; ` +
      `cost basis differs from its midpoint by ${(spread * 100).toFixed(1)}%`;
    if (agreesWithMarket(market)) {
      // The market observation vouches for the answer in proportion to how closely the cost basis agrees with it.
      reasons.unshift(`${said} (within the ${AMS_AGREEMENT_BAND * 100}% band)`);
      return { level: "AMS_ANCHORED", score: round2(Math.max(0, 0.95 - Math.abs(spread))), reasons };
    }
    penalize(0.1, `${said}, outside the ${AMS_AGREEMENT_BAND * 100}% band`);
    score = Math.max(0, score);
  }
  if (reasons.length === 0)
    reasons.push("current regional diesel, state wage, exact places and an interstate-length lane");
  const level: ConfidenceLevel = score >= HIGH_FROM ? "HIGH" : score >= MEDIUM_FROM ? "MEDIUM" : "LOW";
  return { level, score: round2(score), reasons };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
