import { RATE_MODEL } from "../rate-lookup/index.ts";

/**
 * The fuel-surcharge skill's terms. Its defaults come from the rate-lookup constants table (one source
 * for the $1.25 base and each equipment's fuel economy), so its version names that table's too.
 */

export const SURCHARGE_FORMULAS = ["PER_MILE", "PERCENTAGE"] as const;

export const FUEL_SURCHARGE_MODEL = {
  version: `fuel-surcharge-2026.11.1/${RATE_MODEL.version}`,

  defaultBaselinePerGallon: {
    value: RATE_MODEL.fuelSurcharge.value.baseDieselPerGallon,
    source:
      "ATA/DOE convention: the diesel price already priced into the base rate is $1.25/gal (docs/data-sources.md; FRI fuel-surcharge page).",
  },

  defaultMpgDivisor: {
    value: RATE_MODEL.fuelEconomyMpg.value,
    source: `The equipment's fuel economy from the rate-lookup model: ${RATE_MODEL.fuelEconomyMpg.source}`,
  },

  /** Bounds that catch typing errors (cents for dollars, gallons for mpg), not business rules. */
  limits: {
    value: { maxBaselinePerGallon: 10, maxMpgDivisor: 20, maxMiles: RATE_MODEL.maxLaneMiles.value },
    source:
      "Waybill input checks: no diesel base price above $10/gal, no truck above 20 mpg, no lane longer than the rate-lookup maximum.",
  },
} as const;
