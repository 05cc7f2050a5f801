import { Type } from "@sinclair/typebox";
import { DIESEL_REGION_NAMES } from "../../reference/geo/regions.ts";
import { EQUIPMENT_TYPES } from "../kit.ts";
import { enumOf, factorVersionSchema, isoDate } from "../schema-kit.ts";
import { FUEL_SURCHARGE_MODEL, SURCHARGE_FORMULAS } from "./constants.ts";

const { defaultBaselinePerGallon, defaultMpgDivisor } = FUEL_SURCHARGE_MODEL;
const mpgDefaults = Object.entries(defaultMpgDivisor.value)
  .map(([equipment, mpg]) => `${equipment} ${mpg}`)
  .join(", ");

export const fuelSurchargeInput = Type.Object({
  origin: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 120,
      description: '"City, ST" or a 5-digit ZIP: its EIA diesel area is used. Give origin or region, not both.',
      examples: ["Chicago, IL"],
    }),
  ),
  region: Type.Optional(
    enumOf(DIESEL_REGION_NAMES, {
      description:
        "EIA diesel region: NATIONAL (U.S. average), PADD1..PADD5, PADD 1's sub-districts PADD1A (New England), PADD1B (Central Atlantic), " +
        "PADD1C (Lower Atlantic), and PADD 5 split into CALIFORNIA and PADD5_EX_CA. Give origin or region, not both.",
    }),
  ),
  formula: Type.Optional(
    enumOf(SURCHARGE_FORMULAS, {
      default: "PER_MILE",
      description:
        "PER_MILE (default): surcharge in USD per mile. PERCENTAGE: the surcharge for `miles` as a percent of `base_freight_charge`.",
    }),
  ),
  equipment: Type.Optional(
    enumOf(EQUIPMENT_TYPES, { default: "DRY_VAN", description: "Sets the default mpg_divisor; default DRY_VAN" }),
  ),
  miles: Type.Optional(
    Type.Number({ description: "Route miles (> 0): adds the total surcharge; required for PERCENTAGE" }),
  ),
  base_freight_charge: Type.Optional(
    Type.Number({
      description: "Line-haul charge before fuel, USD (> 0); required for PERCENTAGE and only used there",
    }),
  ),
  baseline: Type.Optional(
    Type.Number({
      description: `Diesel price already in the base rate, USD/gal; default ${defaultBaselinePerGallon.value}`,
    }),
  ),
  mpg_divisor: Type.Optional(
    Type.Number({ description: `Miles per gallon to divide by; default the equipment's: ${mpgDefaults}` }),
  ),
  as_of: Type.Optional(isoDate("YYYY-MM-DD: use the diesel price published on or before this date")),
});

export const fuelSurchargeOutput = Type.Object({
  formula: enumOf(SURCHARGE_FORMULAS),
  as_of: Type.String(),
  origin: Type.Optional(
    Type.Object({
      input: Type.String(),
      city: Type.String(),
      state: Type.String(),
      padd: Type.String(),
      resolution: enumOf(["zip", "exact", "city_only", "fuzzy"]),
    }),
  ),
  diesel: Type.Object({
    price_per_gallon: Type.Number({ description: "EIA weekly retail on-highway diesel, USD/gal" }),
    region: enumOf(DIESEL_REGION_NAMES, { description: "The region whose price is used" }),
    area_name: Type.String(),
    series_id: Type.String(),
    observation_date: Type.String({ description: "The EIA survey Monday of the price" }),
    requested_region: enumOf(DIESEL_REGION_NAMES),
    fallback_reason: Type.Optional(
      Type.String({ description: "Why a broader region's price stands in for the requested one" }),
    ),
  }),
  equipment: enumOf(EQUIPMENT_TYPES),
  baseline: Type.Number({ description: "USD/gal" }),
  mpg_divisor: Type.Number(),
  mpg_divisor_source: enumOf(["EQUIPMENT_DEFAULT", "CALLER_PROVIDED"]),
  surcharge_per_mile: Type.Number({ description: "max(0, (diesel - baseline) / mpg_divisor), USD per mile" }),
  miles: Type.Optional(Type.Number()),
  total_surcharge: Type.Optional(Type.Number({ description: "surcharge_per_mile x miles, USD" })),
  base_freight_charge: Type.Optional(Type.Number()),
  surcharge_percent: Type.Optional(
    Type.Number({ description: "total_surcharge / base_freight_charge x 100 (PERCENTAGE only)" }),
  ),
  calculation: Type.String({ description: "The formula with this answer's numbers written in" }),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
