import { FEDERAL_DIESEL_EXCISE_SERIES, stateDieselExciseSeries } from "../series/series-ids.ts";
import type { StateCode } from "../geo/regions.ts";
import type { Observation, ReferenceView } from "../storage/view.ts";

/** Federal and state road-fuel excise on diesel (cents/gal) in force in a state, as of the view. */
export function dieselExcise(view: ReferenceView, state: StateCode): { federal?: Observation; state?: Observation } {
  return { federal: view.latest(FEDERAL_DIESEL_EXCISE_SERIES), state: view.latest(stateDieselExciseSeries(state)) };
}
