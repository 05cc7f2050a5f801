import { round, type Equipment } from "../kit.ts";
import { RATE_MODEL, type Mode } from "./constants.ts";

/** The figures a rate is computed from, already read from the reference data. */
export interface CostInputs {
  equipment: Equipment;
  mode: Mode;
  miles: number;
  /** Retail on-highway diesel for the lane, USD/gal (taxes included). */
  dieselPerGallon: number;
  /** The diesel price the surcharge tariff reads: the origin's EIA area, USD/gal. */
  surchargeDieselPerGallon: number;
  /** Road-tax-free diesel for the reefer unit, USD/gal. */
  offRoadDieselPerGallon: number;
  /** Driver hourly wage, USD/h. */
  driverHourlyWage: number;
  /** Truck, trailer, maintenance, insurance, tires, tolls and permits, USD/mile (ATRI, carried forward). */
  equipmentPerMile: number;
  includeFuelSurcharge: boolean;
  /** Head-haul / back-haul multiplier on the linehaul and per-load cost (lane-balance.ts); 1 for a balanced lane. */
  laneBalanceFactor: number;
}

/** USD per mile, so the parts add up to the rate. Linehaul and per-load parts are after the multipliers; the surcharge never is. */
export interface CostBreakdown {
  fuel: number;
  reefer_fuel: number;
  labor: number;
  equipment: number;
  margin: number;
  per_load: number;
  /** What the lane-balance factor adds (or, below 1, takes off) the parts above. */
  lane_balance: number;
  fuel_surcharge: number;
}

/** The fixed cost of one load in USD, before multipliers. */
export interface PerLoadCost {
  dwell: number;
  empty_miles: number;
  overhead: number;
  total: number;
}

export interface CostBasis {
  ratePerMile: number;
  breakdown: CostBreakdown;
  perLoad: PerLoadCost;
  /** Per-mile cost before margin, per-load cost, surcharge and multipliers, fuel at retail: the figure comparable with ATRI's. */
  operatingCostPerMile: number;
  multiplier: number;
}

const paidHoursPerMile = (): number =>
  1 / (RATE_MODEL.averageDrivingSpeedMph.value * RATE_MODEL.drivingShareOfPaidHours.value);

export interface FuelSurchargeTerms {
  baseDieselPerGallon: number;
  mpgDivisor: number;
}

/** The surcharge terms for an equipment type: the tariff's base price and the equipment's fuel economy. */
export const surchargeTerms = (equipment: Equipment): FuelSurchargeTerms => ({
  baseDieselPerGallon: RATE_MODEL.fuelSurcharge.value.baseDieselPerGallon,
  mpgDivisor: RATE_MODEL.fuelEconomyMpg.value[equipment],
});

/** ATA/DOE per-mile surcharge: (diesel - base) / mpg, never negative. The one surcharge function of rate-lookup and fuel-surcharge. */
export function fuelSurchargePerMile(dieselPerGallon: number, terms: FuelSurchargeTerms): number {
  return Math.max(0, (dieselPerGallon - terms.baseDieselPerGallon) / terms.mpgDivisor);
}

/** A load's fixed cost: dwell at two stops, the empty miles to the pickup, and booking overhead (docs/rate-model.md). */
function perLoadCost(inputs: CostInputs, perMile: { tractorFuel: number; labor: number }): PerLoadCost {
  const { dwellHours, emptyMilesToPickup, overheadPerLoad } = RATE_MODEL.perLoad.value;
  const hoursToMiles = 1 / paidHoursPerMile();
  // An hour standing costs the driver's hour and the equipment's hour (its per-mile cost over the miles it would have run).
  const reeferUnitPerHour =
    inputs.equipment === "REEFER" ? RATE_MODEL.reeferUnitGallonsPerHour.value * inputs.offRoadDieselPerGallon : 0;
  const hourly = (perMile.labor + inputs.equipmentPerMile) * hoursToMiles + reeferUnitPerHour;
  const dwell = dwellHours * hourly;
  const emptyMiles = emptyMilesToPickup * (perMile.tractorFuel + perMile.labor + inputs.equipmentPerMile);
  return { dwell, empty_miles: emptyMiles, overhead: overheadPerLoad, total: dwell + emptyMiles + overheadPerLoad };
}

/**
 * (fuel + reefer fuel + labor + equipment + margin + per-load cost / miles) x mode x equipment multiplier x lane balance [+ surcharge].
 * With the surcharge, linehaul fuel is priced at the surcharge's base price and the surcharge carries the rest,
 * so fuel is counted once; the surcharge is a pass-through and no multiplier scales it.
 */
export function costBasis(inputs: CostInputs): CostBasis {
  const mpg = RATE_MODEL.fuelEconomyMpg.value[inputs.equipment];
  const terms = surchargeTerms(inputs.equipment);
  const tractorFuel = inputs.dieselPerGallon / mpg;
  const fuel = inputs.includeFuelSurcharge
    ? Math.min(inputs.dieselPerGallon, terms.baseDieselPerGallon) / mpg
    : tractorFuel;
  const surcharge = inputs.includeFuelSurcharge ? fuelSurchargePerMile(inputs.surchargeDieselPerGallon, terms) : 0;
  const reeferFuel =
    inputs.equipment === "REEFER"
      ? RATE_MODEL.reeferUnitGallonsPerHour.value * paidHoursPerMile() * inputs.offRoadDieselPerGallon
      : 0;
  const labor = inputs.driverHourlyWage * (1 + RATE_MODEL.driverBenefitsRatio.value) * paidHoursPerMile();
  const equipment = inputs.equipmentPerMile;
  const margin = RATE_MODEL.marginPerMile.value;
  const perLoad = perLoadCost(inputs, { tractorFuel, labor });
  const multiplier =
    RATE_MODEL.modeMultiplier.value[inputs.mode] * RATE_MODEL.equipmentMultiplier.value[inputs.equipment];

  const multiplied = {
    fuel,
    reefer_fuel: reeferFuel,
    labor,
    equipment,
    margin,
    per_load: perLoad.total / inputs.miles,
  };
  const linehaul = Object.values(multiplied).reduce((sum, perMile) => sum + perMile, 0) * multiplier;
  const laneBalance = linehaul * (inputs.laneBalanceFactor - 1);
  const breakdown = {
    ...Object.fromEntries(Object.entries(multiplied).map(([name, perMile]) => [name, round(perMile * multiplier, 4)])),
    lane_balance: round(laneBalance, 4),
    fuel_surcharge: round(surcharge, 4),
  } as unknown as CostBreakdown;
  const ratePerMile = linehaul + laneBalance + surcharge;
  return {
    ratePerMile,
    breakdown,
    perLoad,
    operatingCostPerMile: tractorFuel + reeferFuel + labor + equipment,
    multiplier,
  };
}
