import type { Observation } from "../../reference/view.ts";
import type { FactorVersion } from "../types.ts";

export const factor = (observation: Observation): FactorVersion => ({
  series_id: observation.seriesId,
  value: observation.value,
  observation_date: observation.observedOn,
  import_id: observation.importId,
});

/** Factor versions for observations that may repeat (one per series and date), first use first. */
export const distinctFactors = (observations: readonly Observation[]): FactorVersion[] =>
  [...new Map(observations.map((o) => [`${o.seriesId}|${o.observedOn}`, o])).values()].map(factor);
