import { t } from "elysia";
import { DIESEL_REGION_NAMES } from "../../reference/regions.ts";
import { EQUIPMENT_TYPES } from "../rate-lookup/constants.ts";
import { factorVersionSchema } from "../rate-lookup/schema.ts";
import { FUEL_SURCHARGE_MODEL, SURCHARGE_FORMULAS } from "./constants.ts";

const { defaultBaselinePerGallon, defaultMpgDivisor } = FUEL_SURCHARGE_MODEL;
const mpgDefaults = Object.entries(defaultMpgDivisor.value)
  .map(([equipment, mpg]) => `${equipment} ${mpg}`)
  .join(", ");

export const fuelSurchargeInput = t.Object({
  origin: t.Optional(
    t.String({ minLength: 1, maxLength: 120, description: '"City, ST" or a 5-digit ZIP: its EIA diesel area is used. Give origin or region, not both.', examples: ["Chicago, IL"] }),
  ),
  region: t.Optional(
    t.UnionEnum(DIESEL_REGION_NAMES, {
      default: undefined, // Elysia's UnionEnum would otherwise default to the first value, hiding a missing region
      description:
        "EIA diesel region: NATIONAL (U.S. average), PADD1..PADD5, PADD 1's sub-districts PADD1A (New England), PADD1B (Central Atlantic), " +
        "PADD1C (Lower Atlantic), and PADD 5 split into CALIFORNIA and PADD5_EX_CA. Give origin or region, not both.",
    }),
  ),
  formula: t.Optional(
    t.UnionEnum(SURCHARGE_FORMULAS, {
      default: "PER_MILE",
      description: "PER_MILE (default): surcharge in USD per mile. PERCENTAGE: the surcharge for `miles` as a percent of `base_freight_charge`.",
    }),
  ),
  equipment: t.Optional(t.UnionEnum(EQUIPMENT_TYPES, { default: "DRY_VAN", description: "Sets the default mpg_divisor; default DRY_VAN" })),
  miles: t.Optional(t.Number({ description: "Route miles (> 0): adds the total surcharge; required for PERCENTAGE" })),
  base_freight_charge: t.Optional(t.Number({ description: "Line-haul charge before fuel, USD (> 0); required for PERCENTAGE and only used there" })),
  baseline: t.Optional(t.Number({ description: `Diesel price already in the base rate, USD/gal; default ${defaultBaselinePerGallon.value}` })),
  mpg_divisor: t.Optional(t.Number({ description: `Miles per gallon to divide by; default the equipment's: ${mpgDefaults}` })),
  as_of: t.Optional(
    t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD: use the diesel price published on or before this date" }),
  ),
});

export const fuelSurchargeOutput = t.Object({
  formula: t.UnionEnum(SURCHARGE_FORMULAS),
  as_of: t.String(),
  origin: t.Optional(
    t.Object({ input: t.String(), city: t.String(), state: t.String(), padd: t.String(), resolution: t.UnionEnum(["zip", "exact", "city_only", "fuzzy"]) }),
  ),
  diesel: t.Object({
    price_per_gallon: t.Number({ description: "EIA weekly retail on-highway diesel, USD/gal" }),
    region: t.UnionEnum(DIESEL_REGION_NAMES, { description: "The region whose price is used" }),
    area_name: t.String(),
    series_id: t.String(),
    observation_date: t.String({ description: "The EIA survey Monday of the price" }),
    requested_region: t.UnionEnum(DIESEL_REGION_NAMES),
    fallback_reason: t.Optional(t.String({ description: "Why a broader region's price stands in for the requested one" })),
  }),
  equipment: t.UnionEnum(EQUIPMENT_TYPES),
  baseline: t.Number({ description: "USD/gal" }),
  mpg_divisor: t.Number(),
  mpg_divisor_source: t.UnionEnum(["EQUIPMENT_DEFAULT", "CALLER_PROVIDED"]),
  surcharge_per_mile: t.Number({ description: "max(0, (diesel - baseline) / mpg_divisor), USD per mile" }),
  miles: t.Optional(t.Number()),
  total_surcharge: t.Optional(t.Number({ description: "surcharge_per_mile x miles, USD" })),
  base_freight_charge: t.Optional(t.Number()),
  surcharge_percent: t.Optional(t.Number({ description: "total_surcharge / base_freight_charge x 100 (PERCENTAGE only)" })),
  calculation: t.String({ description: "The formula with this answer's numbers written in" }),
  factor_versions: t.Array(factorVersionSchema),
  model_version: t.String(),
});
