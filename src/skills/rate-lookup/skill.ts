import { defineSkill } from "../types.ts";
import { RATE_MODEL } from "./constants.ts";
import { priceLane } from "./price-lane.ts";
import { rateLookupInput, rateLookupOutput } from "./schema.ts";

export const rateLookupSkill = defineSkill({
  name: "rate-lookup",
  minimumTier: "explorer",
  description:
    "Cost-basis truckload rate for a lane: diesel (EIA, by PADD), driver wages (BLS OEWS, by state), equipment costs (ATRI), " +
    "stops and empty miles priced by the load's hours and miles, road miles on the Interstate network, per-mile breakdown, " +
    "a head-haul / back-haul factor only for reefer produce lanes, the USDA AMS market rate beside the cost where one exists, " +
    "confidence and data sources.",
  rest: { method: "POST", path: "/v1/rates/lookup" },
  input: rateLookupInput,
  output: rateLookupOutput,
  replayable: true,
  asOf: (input) => input.as_of,
  handler(input, context) {
    const { answer } = priceLane(input, context.data);
    return { answer, factorVersions: answer.factor_versions, modelVersion: RATE_MODEL.version };
  },
});
