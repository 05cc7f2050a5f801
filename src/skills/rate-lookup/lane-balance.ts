import { amsDistrictsOf } from "../../reference/geo/ams-districts.ts";
import type { ResolvedPlace } from "../../reference/geo/places.ts";
import type { StateCode } from "../../reference/geo/regions.ts";
import type { Equipment } from "../kit.ts";
import { FREIGHT_MARKETS, RATE_MODEL, type FreightMarket, type Mode } from "./constants.ts";

/**
 * Head-haul / back-haul: a truck sent into a market that ships little back runs empty or cheap on the way
 * out, so loads into such a market cost more and loads out of it less. The factor is the origin market's
 * outbound multiplier times the destination market's inbound one, each fitted on USDA AMS reefer weeks
 * (docs/rate-model.md, "Lane balance"). Public evidence of direction exists only for reefer produce lanes, so
 * the factor applies only to a REEFER truckload whose origin lies in a USDA AMS shipping district; a market with no
 * fitted figure, another equipment type, another origin or a mode the factor does not apply to counts as 1.
 */
export interface LaneBalance {
  origin_market: FreightMarket | null;
  destination_market: FreightMarket | null;
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
  const { outbound, inbound, modes, equipment: evidenced } = RATE_MODEL.laneBalance.value;
  const originMarket = freightMarketOf(origin.state);
  const destinationMarket = freightMarketOf(destination.state);
  const applies = modes.includes(mode) && evidenced.includes(equipment) && amsDistrictsOf(origin).length > 0;
  const out = applies && originMarket ? (outbound[originMarket] ?? 1) : 1;
  const into = applies && destinationMarket ? (inbound[destinationMarket] ?? 1) : 1;
  return {
    origin_market: originMarket,
    destination_market: destinationMarket,
    outbound: out,
    inbound: into,
    factor: out * into,
  };
}
