/**
 * Helpers every skill may use, none of them about one skill's model: rounding, the equipment list,
 * turning the observations an answer used into its factor versions, and the as_of-too-early refusal.
 */
import type { Observation } from "../reference/storage/view.ts";
import { errors } from "../errors.ts";
import type { FactorVersion } from "../receipts/format.ts";

/** Trailer types Waybill prices and reports on. */
export const EQUIPMENT_TYPES = ["DRY_VAN", "REEFER", "FLATBED"] as const;
export type Equipment = (typeof EQUIPMENT_TYPES)[number];

/** Round to a number of decimals the way Math.round does (halves up). */
export function round(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

export const factor = (observation: Observation): FactorVersion => ({
  series_id: observation.seriesId,
  value: observation.value,
  observation_date: observation.observedOn,
  import_id: observation.importId,
});

/** Factor versions for observations that may repeat (one per series and date), first use first. */
export const distinctFactors = (observations: readonly Observation[]): FactorVersion[] =>
  [...new Map(observations.map((o) => [`${o.seriesId}|${o.observedOn}`, o])).values()].map(factor);

/** The refusal for an `as_of` earlier than the first observation a skill needs. */
export const beforeData = (what: string, asOf: string) =>
  errors.invalidRequest([
    { field: "as_of", problem: `is before the data starts: no ${what} observed on or before ${asOf}` },
  ]);
