import { round, type Equipment } from "../kit.ts";
import { RATE_MODEL, type AtriEdition, type Mode } from "./constants.ts";

/** The figures a rate is computed from, already read from the reference data. */
export interface CostInputs {
  equipment: Equipment;
  mode: Mode;
  /** Retail on-highway diesel for the lane, USD/gal (taxes included). */
  dieselPerGallon: number;
  /** Road-tax-free diesel for the reefer unit, USD/gal. */
  offRoadDieselPerGallon: number;
  /** Driver hourly wage, USD/h. */
  driverHourlyWage: number;
  atri: AtriEdition;
  includeFuelSurcharge: boolean;
}

/** USD per mile, each part after the mode and equipment multipliers, so the parts add up to the rate. */
export interface CostBreakdown {
  fuel: number;
  reefer_fuel: number;
  labor: number;
  equipment: number;
  margin: number;
  fuel_surcharge: number;
}

export interface CostBasis {
  ratePerMile: number;
  breakdown: CostBreakdown;
  /** Per-mile cost before margin, surcharge and multipliers: the figure comparable with ATRI's. */
  operatingCostPerMile: number;
  multiplier: number;
}

const paidHoursPerMile = (): number =>
  1 / (RATE_MODEL.averageDrivingSpeedMph.value * RATE_MODEL.drivingShareOfPaidHours.value);

export interface FuelSurchargeTerms {
  baseDieselPerGallon: number;
  mpgDivisor: number;
}

/** ATA/DOE per-mile surcharge: (diesel - base) / mpg, never negative. Rate-lookup uses the tariff's fixed terms. */
export function fuelSurchargePerMile(dieselPerGallon: number, terms: FuelSurchargeTerms = RATE_MODEL.fuelSurcharge.value): number {
  return Math.max(0, (dieselPerGallon - terms.baseDieselPerGallon) / terms.mpgDivisor);
}

/** (fuel + reefer fuel + labor + equipment + margin [+ surcharge]) x mode multiplier x equipment multiplier. */
export function costBasis(inputs: CostInputs): CostBasis {
  const fuel = inputs.dieselPerGallon / RATE_MODEL.fuelEconomyMpg.value[inputs.equipment];
  const reeferFuel =
    inputs.equipment === "REEFER"
      ? RATE_MODEL.reeferUnitGallonsPerHour.value * paidHoursPerMile() * inputs.offRoadDieselPerGallon
      : 0;
  const labor = inputs.driverHourlyWage * (1 + RATE_MODEL.driverBenefitsRatio.value) * paidHoursPerMile();
  const equipment = inputs.atri.equipmentPerMile;
  const margin = RATE_MODEL.marginPerMile.value;
  const surcharge = inputs.includeFuelSurcharge ? fuelSurchargePerMile(inputs.dieselPerGallon) : 0;
  const multiplier = RATE_MODEL.modeMultiplier.value[inputs.mode] * RATE_MODEL.equipmentMultiplier.value[inputs.equipment];

  const parts = { fuel, reefer_fuel: reeferFuel, labor, equipment, margin, fuel_surcharge: surcharge };
  const breakdown = Object.fromEntries(
    Object.entries(parts).map(([name, perMile]) => [name, round(perMile * multiplier, 4)]),
  ) as unknown as CostBreakdown;
  const ratePerMile = Object.values(parts).reduce((sum, perMile) => sum + perMile, 0) * multiplier;
  return { ratePerMile, breakdown, operatingCostPerMile: fuel + reeferFuel + labor + equipment, multiplier };
}
