import type { SkillDeclaration } from "../types.ts";
import { RATE_MODEL } from "./constants.ts";
import { priceLane } from "./price-lane.ts";
import { rateLookupInput, rateLookupOutput } from "./schema.ts";

export { EQUIPMENT_TYPES, MODES } from "./constants.ts";
// Other skills import these from here; they live in their own modules so price-lane can use them too.
export { distinctFactors, factor } from "./factor-versions.ts";

export const rateLookupSkill: SkillDeclaration<typeof rateLookupInput, typeof rateLookupOutput> = {
  name: "rate-lookup",
  scope: "rate-lookup",
  minimumTier: "explorer",
  description:
    "Cost-basis truckload rate for a lane: diesel (EIA, by PADD), driver wages (BLS OEWS, by state), equipment costs (ATRI), " +
    "distance from the places' coordinates and a road-circuity factor, with per-mile breakdown, confidence and data sources.",
  rest: { method: "POST", path: "/v1/rates/lookup" },
  input: rateLookupInput,
  output: rateLookupOutput,
  asOf: (input) => input.as_of,
  handler(input, context) {
    const { answer } = priceLane(input, context.data);
    return { answer, factorVersions: answer.factor_versions, modelVersion: RATE_MODEL.version };
  },
};
