import type { StateCode } from "../../reference/geo/regions.ts";
import { FREIGHT_MARKETS, RATE_MODEL, type FreightMarket, type Mode } from "./constants.ts";

/**
 * Head-haul / back-haul: a truck sent into a market that ships little back runs empty or cheap on the way
 * out, so loads into such a market cost more and loads out of it less. The factor is the origin market's
 * outbound multiplier times the destination market's inbound one, each fitted on USDA AMS reefer weeks
 * (docs/rate-model.md, "Lane balance"). A market with no fitted figure, or a mode the factor does not
 * apply to, counts as 1.
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

export function laneBalance(originState: StateCode, destinationState: StateCode, mode: Mode): LaneBalance {
  const { outbound, inbound, modes } = RATE_MODEL.laneBalance.value;
  const originMarket = freightMarketOf(originState);
  const destinationMarket = freightMarketOf(destinationState);
  const applies = modes.includes(mode);
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
