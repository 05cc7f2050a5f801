import type { Static } from "@sinclair/typebox";
import { dieselFallbackReason } from "../../reference/readings/diesel.ts";
import { dieselRegionOf } from "../../reference/geo/regions.ts";
import { factor } from "../kit.ts";
import { defineSkill } from "../types.ts";
import { FUEL_SURCHARGE_MODEL } from "./constants.ts";
import { surchargeDiesel } from "./diesel-source.ts";
import { refuseInvalidInput } from "./input-rules.ts";
import { fuelSurchargeInput, fuelSurchargeOutput } from "./schema.ts";
import { quoteSurcharge } from "./surcharge.ts";

type Output = Static<typeof fuelSurchargeOutput>;

export const fuelSurchargeSkill = defineSkill({
  name: "fuel-surcharge",
  minimumTier: "explorer",
  description:
    "ATA/DOE fuel surcharge from EIA weekly diesel for an origin's PADD area or a named region: " +
    "max(0, (diesel - baseline) / mpg) per mile, the total for a trip, or its percent of a base freight charge.",
  rest: { method: "POST", path: "/v1/fuel/surcharge" },
  input: fuelSurchargeInput,
  output: fuelSurchargeOutput,
  replayable: true,
  asOf: (input) => input.as_of,
  handler(input, { data: view }) {
    refuseInvalidInput(input);
    const formula = input.formula ?? "PER_MILE";
    const equipment = input.equipment ?? "DRY_VAN";
    const baseline = input.baseline ?? FUEL_SURCHARGE_MODEL.defaultBaselinePerGallon.value;
    const mpgDivisor = input.mpg_divisor ?? FUEL_SURCHARGE_MODEL.defaultMpgDivisor.value[equipment];

    const { reading, origin } = surchargeDiesel(view, input);
    const price = reading.observation.value;
    const quote = quoteSurcharge(
      price,
      { baseDieselPerGallon: baseline, mpgDivisor },
      {
        miles: input.miles,
        baseFreightCharge: formula === "PERCENTAGE" ? input.base_freight_charge : undefined,
      },
    );
    const fallback = dieselFallbackReason(reading);

    const answer: Output = {
      formula,
      as_of: view.asOf,
      // surchargeDiesel resolves an origin exactly when the input names one.
      ...(origin &&
        input.origin !== undefined && {
          origin: {
            input: input.origin,
            city: origin.city,
            state: origin.state,
            padd: origin.padd,
            resolution: origin.quality,
          },
        }),
      diesel: {
        price_per_gallon: price,
        region: dieselRegionOf(reading.area),
        area_name: reading.areaName,
        series_id: reading.observation.seriesId,
        observation_date: reading.observation.observedOn,
        requested_region: dieselRegionOf(reading.requestedArea),
        ...(fallback && { fallback_reason: fallback }),
      },
      equipment,
      baseline,
      mpg_divisor: mpgDivisor,
      mpg_divisor_source: input.mpg_divisor === undefined ? "EQUIPMENT_DEFAULT" : "CALLER_PROVIDED",
      surcharge_per_mile: quote.perMile,
      ...(input.miles !== undefined && { miles: input.miles, total_surcharge: quote.total }),
      ...(quote.percent !== undefined && {
        base_freight_charge: input.base_freight_charge,
        surcharge_percent: quote.percent,
      }),
      calculation: quote.calculation,
      factor_versions: [factor(reading.observation)],
      model_version: FUEL_SURCHARGE_MODEL.version,
    };
    return { answer, factorVersions: answer.factor_versions, modelVersion: FUEL_SURCHARGE_MODEL.version };
  },
});
