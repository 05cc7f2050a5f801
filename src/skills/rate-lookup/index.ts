/**
 * rate-lookup's public face: the lane-pricing model other skills reuse (lane-comparison prices each
 * lane, rate-forecast re-prices one at forecast diesel prices, fuel-surcharge shares the surcharge
 * tariff and fuel economy). Other skills import from here, never from the folder's other modules.
 */
export { MODES, RATE_MODEL, type Mode } from "./constants.ts";
export { fuelSurchargePerMile, type FuelSurchargeTerms } from "./model.ts";
export { EQUIPMENT_COST_INDEX } from "./equipment-cost.ts";
export { costAtDiesel, type CostScale, priceLane, type LaneFactors, type RateLookupAnswer } from "./price-lane.ts";
export { placeOrRefuse } from "./lane.ts";
export { rateLookupInput, rateLookupOutput } from "./schema.ts";
