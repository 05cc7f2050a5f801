import type { ResolvedPlace } from "../../reference/places.ts";
import type { DieselReading } from "../../reference/diesel.ts";
import type { WageReading } from "../../reference/labor.ts";
import type { Observation } from "../../reference/view.ts";
import type { Mode } from "./constants.ts";
import { daysBetween } from "../../dates.ts";

export type ConfidenceLevel = "AMS_ANCHORED" | "HIGH" | "MEDIUM" | "LOW";

export interface ConfidenceInputs {
  asOf: string;
  diesel: DieselReading[];
  wage: WageReading;
  places: { field: "origin" | "destination"; place: ResolvedPlace }[];
  distanceMethod: "GREAT_CIRCLE_X_CIRCUITY" | "CALLER_PROVIDED";
  miles: number;
  mode: Mode;
  marketAnchor?: { observation: Observation; deviation: number };
}

export interface Confidence {
  level: ConfidenceLevel;
  score: number;
  reasons: string[];
}

/** Score thresholds for the levels below AMS_ANCHORED. */
const HIGH_FROM = 0.8;
const MEDIUM_FROM = 0.6;

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

  for (const reading of inputs.diesel) {
    const age = daysBetween(reading.observation.observedOn, inputs.asOf);
    if (age > 45) penalize(0.3, `diesel price for ${reading.areaName} is ${age} days old`);
    else if (age > 14) penalize(0.15, `diesel price for ${reading.areaName} is ${age} days old`);
    else if (age > 7) penalize(0.05, `diesel price for ${reading.areaName} is ${age} days old`);
    if (reading.area !== reading.requestedArea) penalize(0.05, `no current regional diesel price; used ${reading.areaName}`);
  }

  const wageAgeMonths = daysBetween(inputs.wage.observation.observedOn, inputs.asOf) / 30.4;
  if (inputs.wage.scope === "national") penalize(0.05, `no state wage for ${inputs.wage.state}; used the national median`);
  if (wageAgeMonths > 24) penalize(0.1, `driver wage survey is ${Math.round(wageAgeMonths)} months old`);
  else if (wageAgeMonths > 15) penalize(0.05, `driver wage survey is ${Math.round(wageAgeMonths)} months old`);

  for (const { field, place } of inputs.places) {
    if (place.quality === "fuzzy") penalize(0.15, `${field} matched approximately (${place.editDistance} edits) to ${place.city}, ${place.state}`);
    if (place.quality === "city_only") penalize(0.05, `${field} had no state; took the most populous ${place.city}`);
  }

  if (inputs.distanceMethod === "GREAT_CIRCLE_X_CIRCUITY") penalize(0.05, "distance estimated from great-circle miles and a circuity factor");
  if (inputs.miles < 150) penalize(0.15, "short lane: fixed per-load costs dominate and a per-mile cost basis understates them");
  else if (inputs.miles > 2500) penalize(0.05, "very long lane: team drivers and backhaul pricing are outside the model");
  if (inputs.mode !== "FTL") penalize(0.1, `${inputs.mode} is priced with a fixed multiplier on the truckload cost basis`);

  score = Math.max(0, Math.min(1, score));
  if (inputs.marketAnchor) {
    const { observation, deviation } = inputs.marketAnchor;
    // The market observation vouches for the answer in proportion to how closely the cost basis agrees with it.
    score = Math.max(0, Math.min(1, 0.95 - Math.min(0.45, Math.abs(deviation))));
    reasons.unshift(
      `USDA AMS reefer rate for this lane on ${observation.observedOn}: $${observation.value.toFixed(2)}/mi; cost basis differs by ${(deviation * 100).toFixed(1)}%`,
    );
    return { level: "AMS_ANCHORED", score: round2(score), reasons };
  }
  if (reasons.length === 0) reasons.push("current regional diesel, state wage, exact places and an interstate-length lane");
  const level: ConfidenceLevel = score >= HIGH_FROM ? "HIGH" : score >= MEDIUM_FROM ? "MEDIUM" : "LOW";
  return { level, score: round2(score), reasons };
}

const round2 = (value: number) => Math.round(value * 100) / 100;
