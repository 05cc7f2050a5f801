import { amsDistrictsOf } from "../../reference/geo/ams-districts.ts";
import type { ResolvedPlace } from "../../reference/geo/places.ts";
import type { StateCode } from "../../reference/geo/regions.ts";
import type { Equipment } from "../kit.ts";
import { FREIGHT_MARKETS, RATE_MODEL, type FreightMarket, type Mode } from "./constants.ts";

/**
 * Head-haul / back-haul, where public evidence shows it: a reefer load out of a produce shipping district is a head
 * haul (trucks come in empty or cheap to take the crop out), and how much it pays over the cost basis depends on the
 * district and on the market it goes to. The factor is the head-haul level times the district's outbound multiplier
 * times the destination market's inbound one, all fitted on USDA AMS reefer weeks (docs/rate-model.md, "Lane
 * balance"). It applies only to a REEFER truckload whose origin lies in a USDA AMS shipping district; another
 * equipment type, another origin or a mode the factor does not apply to counts as 1.
 */
export interface LaneBalance {
  /** The USDA AMS shipping district the origin lies in (the nearest), null when none. */
  origin_district: string | null;
  origin_market: FreightMarket | null;
  destination_market: FreightMarket | null;
  level: number;
  outbound: number;
  inbound: number;
  factor: number;
}

const MARKET_OF_STATE = new Map<StateCode, FreightMarket>(
  Object.entries(FREIGHT_MARKETS).flatMap(([market, states]) =>
    states.map((state) => [state as StateCode, market as FreightMarket] as const),
  ),
);

export const freightMarketOf = (state: StateCode): FreightMarket | null => MARKET_OF_STATE.get(state) ?? null;

export function laneBalance(
  origin: ResolvedPlace,
  destination: ResolvedPlace,
  mode: Mode,
  equipment: Equipment,
): LaneBalance {
  const { level, outbound, inbound, modes, equipment: evidenced } = RATE_MODEL.laneBalance.value;
  const originDistrict = amsDistrictsOf(origin)[0] ?? null;
  const originMarket = freightMarketOf(origin.state);
  const destinationMarket = freightMarketOf(destination.state);
  const applies = modes.includes(mode) && evidenced.includes(equipment) && originDistrict !== null;
  const headHaul = applies ? level : 1;
  const out = applies && originDistrict ? (outbound[originDistrict] ?? 1) : 1;
  const into = applies && destinationMarket ? (inbound[destinationMarket] ?? 1) : 1;
  return {
    origin_district: originDistrict,
    origin_market: originMarket,
    destination_market: destinationMarket,
    level: headHaul,
    outbound: out,
    inbound: into,
    factor: headHaul * out * into,
  };
}
