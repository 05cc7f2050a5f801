import type { Static } from "@sinclair/typebox";
import { errors } from "../../errors.ts";
import { dieselPriceForState, type DieselReading } from "../../reference/readings/diesel.ts";
import { dieselExcise } from "../../reference/readings/excise.ts";
import { truckDriverWage, type WageReading } from "../../reference/readings/labor.ts";
import { amsMarketRate } from "../../reference/readings/market-anchor.ts";
import type { ResolvedPlace } from "../../reference/geo/places.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import { agreesWithMarket, AMS_AGREEMENT_BAND, assessConfidence, type MarketComparison } from "./confidence.ts";
import { beforeData, EQUIPMENT_TYPES, factor, round, type Equipment } from "../kit.ts";
import { MODES, RATE_MODEL, type Mode } from "./constants.ts";
import { describeCarry, driverWageAsOf, type DriverWage } from "./driver-wage.ts";
import { equipmentCostAsOf, type EquipmentCost } from "./equipment-cost.ts";
import { laneBalance, type LaneBalance } from "./lane-balance.ts";
import { fieldAsIs, resolveLane, type Lane, type LaneFieldName } from "./lane.ts";
import { costBasis, type CostBasis } from "./model.ts";
import type { rateLookupOutput } from "./schema.ts";

export type RateLookupAnswer = Static<typeof rateLookupOutput>;

/** One lane to price: rate-lookup's input without `as_of` (the view carries the date). */
export interface LaneRequest {
  origin: string;
  destination: string;
  equipment: Equipment;
  mode?: Mode;
  miles?: number;
  include_fuel_surcharge?: boolean;
}

/** Everything a lane's rate is computed from, read from the view once. */
export interface LaneFactors {
  lane: Lane;
  equipment: Equipment;
  mode: Mode;
  includeFuelSurcharge: boolean;
  /** The origin's diesel area, and the destination's when it is a different series. */
  diesel: LaneDiesel;
  /** Mean of the readings: the lane's retail diesel, USD/gal. */
  dieselPerGallon: number;
  /** Road-fuel excise (federal and origin state) a reefer unit's tax-free diesel does not pay, USD/gal; 0 for other equipment. */
  offRoadTaxRelief: number;
  wage: WageReading;
  /** The wage the model prices labor at: the OEWS reading, carried forward by ATRI when a later edition is out. */
  driverWage: DriverWage;
  equipmentCost: EquipmentCost;
  /** Head-haul / back-haul multiplier of the lane's markets (model constants). */
  laneBalance: LaneBalance;
  /** Diesel, wage and excise observations, in the order rate-lookup lists them. */
  used: Observation[];
}

function checkAllowed(field: string, value: string, allowed: readonly string[]): void {
  if (!allowed.includes(value)) {
    throw errors.invalidRequest([{ field, problem: `must be one of ${allowed.join(", ")}`, allowed }]);
  }
}

/** The origin's reading first, then the destination's when it is another series. */
type LaneDiesel = [atOrigin: DieselReading, ...atDestination: DieselReading[]];

function laneDiesel(view: ReferenceView, origin: ResolvedPlace, destination: ResolvedPlace): LaneDiesel {
  const atOrigin = dieselPriceForState(view, origin.state);
  const atDestination = dieselPriceForState(view, destination.state);
  if (!atOrigin || !atDestination) throw beforeData("diesel price", view.asOf);
  return atOrigin.observation.seriesId === atDestination.observation.seriesId ? [atOrigin] : [atOrigin, atDestination];
}

const describeDiesel = (readings: DieselReading[]): string =>
  "EIA weekly retail on-highway diesel, " +
  readings
    .map((r) => `${r.observation.seriesId} (${r.areaName}, week of ${r.observation.observedOn})`)
    .join(" averaged with ");

/** Resolve the lane and read its diesel, wage, ATRI edition and (for reefers) excise as of the view. */
export function readLaneFactors(
  request: LaneRequest,
  view: ReferenceView,
  fieldName: LaneFieldName = fieldAsIs,
): LaneFactors {
  const mode = request.mode ?? "FTL";
  checkAllowed(fieldName("equipment"), request.equipment, EQUIPMENT_TYPES);
  checkAllowed(fieldName("mode"), mode, MODES);

  const lane = resolveLane(request.origin, request.destination, request.miles, fieldName, view.roads);
  const diesel = laneDiesel(view, lane.origin, lane.destination);
  const dieselPerGallon = diesel.reduce((sum, r) => sum + r.observation.value, 0) / diesel.length;
  const wage = truckDriverWage(view, lane.origin.state);
  if (!wage) throw beforeData("truck-driver wage", view.asOf);
  const equipmentCost = equipmentCostAsOf(view);
  if (!equipmentCost) throw beforeData("ATRI operating-cost edition", view.asOf);

  const used: Observation[] = [...diesel.map((r) => r.observation), wage.observation];
  if (equipmentCost.carriedForward) used.push(equipmentCost.carriedForward.latest);
  // Reefer units run on road-tax-free diesel: retail minus the federal and origin-state excise.
  let offRoadTaxRelief = 0;
  if (request.equipment === "REEFER") {
    const excise = dieselExcise(view, lane.origin.state);
    for (const tax of [excise.federal, excise.state]) {
      if (!tax) continue;
      offRoadTaxRelief += tax.value / 100;
      used.push(tax);
    }
  }
  const includeFuelSurcharge = request.include_fuel_surcharge ?? false;
  const driverWage = driverWageAsOf(wage.observation, view.asOf);
  const balance = laneBalance(lane.origin, lane.destination, mode, request.equipment);
  return {
    lane,
    equipment: request.equipment,
    mode,
    includeFuelSurcharge,
    diesel,
    dieselPerGallon,
    offRoadTaxRelief,
    wage,
    driverWage,
    equipmentCost,
    laneBalance: balance,
    used,
  };
}

/** Multipliers on the driver wage and the equipment cost per mile, for a forecast that projects them (1: as read). */
export interface CostScale {
  wage: number;
  equipment: number;
}

/**
 * The lane's cost basis at a given retail diesel price, every other factor as read (or scaled, for a forecast). The
 * surcharge reads the origin's diesel area (the tariff's rule, shared with fuel-surcharge); a forecast moves both
 * prices together.
 */
export function costAtDiesel(
  factors: LaneFactors,
  dieselPerGallon: number,
  scale: CostScale = { wage: 1, equipment: 1 },
): CostBasis {
  const originDiesel = factors.diesel[0].observation.value;
  return costBasis({
    equipment: factors.equipment,
    mode: factors.mode,
    miles: factors.lane.miles,
    dieselPerGallon,
    surchargeDieselPerGallon: originDiesel + (dieselPerGallon - factors.dieselPerGallon),
    offRoadDieselPerGallon: dieselPerGallon - factors.offRoadTaxRelief,
    driverHourlyWage: factors.driverWage.hourly * scale.wage,
    equipmentPerMile: factors.equipmentCost.perMile * scale.equipment,
    includeFuelSurcharge: factors.includeFuelSurcharge,
    laneBalanceFactor: factors.laneBalance.factor,
  });
}

const placeOut = (text: string, place: ResolvedPlace) => ({
  input: text,
  city: place.city,
  state: place.state,
  lat: place.lat,
  lon: place.lon,
  padd: place.padd,
  resolution: place.quality,
});

function distanceOut(lane: Lane): RateLookupAnswer["distance"] {
  return {
    road_network: lane.roadNetwork,
    ...(lane.connectorMiles && {
      connector_miles: {
        origin: round(lane.connectorMiles.origin, 1),
        destination: round(lane.connectorMiles.destination, 1),
      },
    }),
    ...(lane.fallbackReason && { fallback_reason: lane.fallbackReason }),
    ...(lane.boundReason && { bound_reason: lane.boundReason }),
  };
}

function marketOut(market: MarketComparison, costPerLoad: number): NonNullable<RateLookupAnswer["market_anchor"]> {
  const { rate } = market;
  return {
    source: `USDA AMS Specialty Crops National Truck Rate Report (FVWTRK), ${rate.district} to ${rate.destination}, series ${rate.low.seriesId} and ${rate.high.seriesId}`,
    district: rate.district,
    destination: rate.destination,
    observation_date: rate.low.observedOn,
    low_per_load: rate.low.value,
    high_per_load: rate.high.value,
    midpoint_per_load: rate.midpoint,
    cost_basis_per_load: round(costPerLoad, 2),
    spread: round(market.spread, 4),
    agrees: agreesWithMarket(market),
    band: AMS_AGREEMENT_BAND,
  };
}

/** Rate-lookup's answer for one lane as of the view, every observation it used, and the factors it was computed from. */
export function priceLane(
  request: LaneRequest,
  view: ReferenceView,
  fieldName: LaneFieldName = fieldAsIs,
): { answer: RateLookupAnswer; used: Observation[]; factors: LaneFactors } {
  const factors = readLaneFactors(request, view, fieldName);
  const { lane, mode, equipment, diesel, dieselPerGallon, wage, equipmentCost } = factors;
  const cost = costAtDiesel(factors, dieselPerGallon);
  const totalCost = cost.ratePerMile * lane.miles;

  const used = [...factors.used];
  const rate =
    equipment === "REEFER" && mode === "FTL" ? amsMarketRate(view, lane.origin, lane.destination) : undefined;
  if (rate) used.push(rate.low, rate.high);
  const market = rate && { rate, spread: (totalCost - rate.midpoint) / rate.midpoint };

  const confidence = assessConfidence({
    asOf: view.asOf,
    diesel,
    wage,
    places: [
      { field: "origin", place: lane.origin },
      { field: "destination", place: lane.destination },
    ],
    lane,
    mode,
    market,
  });

  const answer: RateLookupAnswer = {
    type: "COST_BASIS",
    rate_per_mile: round(cost.ratePerMile, 3),
    total_cost: round(totalCost, 2),
    miles: round(lane.miles, 1),
    distance_method: lane.distanceMethod,
    distance: distanceOut(lane),
    equipment,
    mode,
    as_of: view.asOf,
    origin: placeOut(request.origin, lane.origin),
    destination: placeOut(request.destination, lane.destination),
    breakdown: cost.breakdown,
    load: cost.load,
    multipliers: {
      mode: RATE_MODEL.modeMultiplier.value[mode],
      equipment: RATE_MODEL.equipmentMultiplier.value[equipment],
    },
    lane_balance: { ...factors.laneBalance, factor: round(factors.laneBalance.factor, 4) },
    confidence,
    data_sources: {
      diesel_price: round(dieselPerGallon, 4),
      diesel_source: describeDiesel(diesel),
      labor_rate: round(factors.driverWage.hourly, 2),
      labor_source: `BLS OEWS heavy and tractor-trailer truck drivers (53-3032) hourly median, ${wage.scope === "state" ? lane.origin.state : "U.S."}, series ${wage.observation.seriesId} (${wage.observation.observedOn})${describeCarry(factors.driverWage)}`,
      equipment_source: equipmentCost.description,
      ...(factors.includeFuelSurcharge && {
        fuel_surcharge_source: `(${diesel[0].observation.seriesId} ${diesel[0].observation.value} - ${RATE_MODEL.fuelSurcharge.value.baseDieselPerGallon} base) / ${RATE_MODEL.fuelEconomyMpg.value[equipment]} mpg, split out of the fuel line; the total is the same without it`,
      }),
    },
    ...(market && { market_anchor: marketOut(market, totalCost) }),
    factor_versions: used.map(factor),
    model_version: RATE_MODEL.version,
  };
  return { answer, used, factors };
}
