import { round, type Equipment } from "../kit.ts";
import { RATE_MODEL, type Mode } from "./constants.ts";

/** The figures a rate is computed from, already read from the reference data. */
export interface CostInputs {
  equipment: Equipment;
  mode: Mode;
  /** Loaded miles of the lane. */
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
  /** Head-haul / back-haul multiplier on the non-fuel lines and margin (lane-balance.ts); 1 for a balanced lane. */
  laneBalanceFactor: number;
}

/** USD per loaded mile; the parts add up to the rate. */
export interface CostBreakdown {
  /** Tractor diesel for every mile driven, loaded and empty, less what the surcharge carries. */
  fuel: number;
  reefer_fuel: number;
  /** Driver time on the loaded miles. */
  labor: number;
  /** Equipment time on the loaded miles and its wear by the mile. */
  equipment: number;
  /** Driver and equipment time at the two stops. */
  stops: number;
  /** Driver and equipment time and wear on the empty miles (their diesel is in `fuel`). */
  empty_miles: number;
  margin: number;
  /** What the lane-balance factor adds to (or, below 1, takes off) the non-fuel lines and margin. */
  lane_balance: number;
  fuel_surcharge: number;
}

/** What a load takes (miles and hours) and what each costs. */
export interface LoadQuantities {
  empty_miles: number;
  driven_miles: number;
  /** Driving and the on-duty time around it, loaded and empty. */
  running_hours: number;
  stop_hours: number;
  /** Driver and equipment time, USD per on-duty hour, after the multipliers. */
  cost_per_hour: number;
  /** Tractor diesel and equipment wear, USD per mile driven; the wear after the multipliers. */
  cost_per_driven_mile: number;
}

export interface CostBasis {
  ratePerMile: number;
  breakdown: CostBreakdown;
  load: LoadQuantities;
  /** Every cost line but margin, lane balance and surcharge split, USD per loaded mile: the figure comparable with ATRI's total. */
  operatingCostPerMile: number;
  multiplier: number;
}

const { stopHours, emptyShareOfLoadedMiles, minEmptyMilesPerLoad, equipmentTimeShare, referenceHaulMiles } =
  RATE_MODEL.load.value;

/** On-duty miles per hour while running: the planning speed over the share of the on-duty window spent driving. */
const RUNNING_MPH = RATE_MODEL.averageDrivingSpeedMph.value * RATE_MODEL.drivingShareOfPaidHours.value;

export const emptyMilesFor = (loadedMiles: number): number =>
  Math.max(minEmptyMilesPerLoad, emptyShareOfLoadedMiles * loadedMiles);

/** The reference haul ATRI's per-mile lines are read as (docs/rate-model.md, "One cost per mile"). */
const REFERENCE = (() => {
  const drivenMiles = referenceHaulMiles + emptyMilesFor(referenceHaulMiles);
  return { drivenMiles, hours: drivenMiles / RUNNING_MPH + stopHours };
})();

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

/**
 * One cost per mile, calibrated once: each per-mile line (fuel at retail / mpg, the driver at the OEWS wage over
 * the hours-of-service running speed, ATRI's equipment) is what a mile of the reference long haul costs, its empty
 * miles and stops included. Split once over that haul's hours (driver, equipment payments and insurance) and driven
 * miles (diesel, repair, tires, tolls), the same rates then price any lane by its own hours and miles, so a short
 * haul costs its day and a long haul costs ATRI's mile (docs/rate-model.md).
 */
function unitRates(inputs: CostInputs) {
  const perLoadedMile = {
    fuel: inputs.dieselPerGallon / RATE_MODEL.fuelEconomyMpg.value[inputs.equipment],
    driver: (inputs.driverHourlyWage * (1 + RATE_MODEL.driverBenefitsRatio.value)) / RUNNING_MPH,
    equipment: inputs.equipmentPerMile,
  };
  const perHour = referenceHaulMiles / REFERENCE.hours;
  const perDrivenMile = referenceHaulMiles / REFERENCE.drivenMiles;
  return {
    fuelPerDrivenMile: perLoadedMile.fuel * perDrivenMile,
    wearPerDrivenMile: perLoadedMile.equipment * (1 - equipmentTimeShare) * perDrivenMile,
    driverPerHour: perLoadedMile.driver * perHour,
    equipmentPerHour: perLoadedMile.equipment * equipmentTimeShare * perHour,
  };
}

/**
 * The lane's cost basis: fuel, reefer fuel, driver, equipment, stops and empty miles priced by the load's hours and
 * miles, the mode and equipment multipliers on everything but fuel, the stated margin, and (reefer only) the lane
 * balance on the non-fuel lines and margin. With the surcharge, the tariff's figure is split out of the fuel line:
 * the total does not move.
 */
export function costBasis(inputs: CostInputs): CostBasis {
  const miles = inputs.miles;
  const rates = unitRates(inputs);
  const multiplier =
    RATE_MODEL.modeMultiplier.value[inputs.mode] * RATE_MODEL.equipmentMultiplier.value[inputs.equipment];

  const emptyMiles = emptyMilesFor(miles);
  const drivenMiles = miles + emptyMiles;
  const loadedHours = miles / RUNNING_MPH;
  const emptyHours = emptyMiles / RUNNING_MPH;
  const timePerHour = (rates.driverPerHour + rates.equipmentPerHour) * multiplier;
  const wearPerMile = rates.wearPerDrivenMile * multiplier;

  const tractorFuel = (rates.fuelPerDrivenMile * drivenMiles) / miles;
  const reeferFuel =
    inputs.equipment === "REEFER"
      ? (RATE_MODEL.reeferUnitGallonsPerHour.value * inputs.offRoadDieselPerGallon * (loadedHours + stopHours)) / miles
      : 0;
  const nonFuel = {
    labor: (rates.driverPerHour * multiplier * loadedHours) / miles,
    equipment: (rates.equipmentPerHour * multiplier * loadedHours) / miles + wearPerMile,
    stops: (timePerHour * stopHours) / miles,
    empty_miles: (timePerHour * emptyHours + wearPerMile * emptyMiles) / miles,
  };
  const margin = RATE_MODEL.marginPerMile.value;
  const balanced = Object.values(nonFuel).reduce((sum, perMile) => sum + perMile, 0) + margin;
  const laneBalance = balanced * (inputs.laneBalanceFactor - 1);
  const surcharge = inputs.includeFuelSurcharge
    ? Math.min(tractorFuel, fuelSurchargePerMile(inputs.surchargeDieselPerGallon, surchargeTerms(inputs.equipment)))
    : 0;

  const operatingCostPerMile = tractorFuel + reeferFuel + balanced - margin;
  return {
    ratePerMile: operatingCostPerMile + margin + laneBalance,
    breakdown: {
      fuel: round(tractorFuel - surcharge, 4),
      reefer_fuel: round(reeferFuel, 4),
      labor: round(nonFuel.labor, 4),
      equipment: round(nonFuel.equipment, 4),
      stops: round(nonFuel.stops, 4),
      empty_miles: round(nonFuel.empty_miles, 4),
      margin,
      lane_balance: round(laneBalance, 4),
      fuel_surcharge: round(surcharge, 4),
    },
    load: {
      empty_miles: round(emptyMiles, 1),
      driven_miles: round(drivenMiles, 1),
      running_hours: round(loadedHours + emptyHours, 2),
      stop_hours: stopHours,
      cost_per_hour: round(timePerHour, 2),
      cost_per_driven_mile: round(rates.fuelPerDrivenMile + wearPerMile, 4),
    },
    operatingCostPerMile,
    multiplier,
  };
}
