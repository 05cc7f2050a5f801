import type { Observation } from "../../reference/storage/view.ts";
import { RATE_MODEL, type AtriEdition } from "./constants.ts";

export interface DriverWage {
  /** USD per hour the model prices labor at. */
  hourly: number;
  /** When a newer ATRI edition carried the OEWS wage forward: the editions compared and their ratio. */
  carriedForward?: { from: AtriEdition; to: AtriEdition; ratio: number };
}

/**
 * The OEWS hourly wage as of a date, carried forward by ATRI's driver compensation per mile when an ATRI
 * edition published by then reports a later year than the wage's: x (newest edition's driver cost per mile /
 * that of the first edition whose data year is not before the wage's). Without such an edition, the wage as published
 * (docs/rate-model.md, "Point in time").
 */
export function driverWageAsOf(wage: Observation, asOf: string): DriverWage {
  const wageYear = Number(wage.observedOn.slice(0, 4));
  const published = RATE_MODEL.atriEditions.value.filter((edition) => edition.publishedOn <= asOf);
  const from = published.find((edition) => edition.dataYear >= wageYear);
  const to = published.at(-1);
  if (!from || !to || to.dataYear <= from.dataYear) return { hourly: wage.value };
  const ratio = to.driverPerMile / from.driverPerMile;
  return { hourly: wage.value * ratio, carriedForward: { from, to, ratio } };
}

/** Sentence for the answer's labor source: how the wage was carried forward, if it was. */
export function describeCarry(wage: DriverWage): string {
  const carry = wage.carriedForward;
  if (!carry) return "";
  return (
    `; carried forward x${carry.ratio.toFixed(4)} by ATRI driver compensation per mile (${carry.to.edition} edition, ${carry.to.dataYear} data, ` +
    `$${carry.to.driverPerMile} over the ${carry.from.edition} edition's ${carry.from.dataYear} $${carry.from.driverPerMile}) = $${wage.hourly.toFixed(2)}/h`
  );
}
