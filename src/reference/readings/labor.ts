import { stateInfo, type StateCode } from "../geo/regions.ts";
import { NATIONAL_TRUCK_DRIVER_WAGE_SERIES, stateTruckDriverWageSeries } from "../series/series-ids.ts";
import type { Observation, ReferenceView } from "../storage/view.ts";

export interface WageReading {
  scope: "state" | "national";
  state: StateCode;
  observation: Observation; // USD per hour, OEWS hourly median, SOC 53-3032
}

/** Hourly median wage of heavy and tractor-trailer truck drivers in a state, else the national one. */
export function truckDriverWage(view: ReferenceView, state: StateCode): WageReading | undefined {
  const local = view.latest(stateTruckDriverWageSeries(stateInfo(state).fips));
  if (local) return { scope: "state", state, observation: local };
  const national = view.latest(NATIONAL_TRUCK_DRIVER_WAGE_SERIES);
  return national && { scope: "national", state, observation: national };
}
