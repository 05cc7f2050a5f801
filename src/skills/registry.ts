import type { Tier } from "../access/tiers.ts";
import { auditReportSkill } from "./audit-report/skill.ts";
import { carrierCapacitySkill } from "./carrier-capacity/skill.ts";
import { dieselTrendsSkill } from "./diesel-trends/skill.ts";
import { fuelSurchargeSkill } from "./fuel-surcharge/skill.ts";
import { laneComparisonSkill } from "./lane-comparison/skill.ts";
import { marketAnalysisSkill } from "./market-analysis/skill.ts";
import { rateForecastSkill } from "./rate-forecast/skill.ts";
import { rateAlertsSkill } from "./rate-alerts/skill.ts";
import { rateLookupSkill } from "./rate-lookup/skill.ts";

/**
 * Every skill Waybill answers. Adding a skill is one folder under src/skills/ (a `defineSkill`
 * declaration) and one line here; the scope list, the tier table, every transport, the dashboard's
 * scope picker and /pricing follow from this list.
 */
// biome-ignore format: one skill per line, so adding a skill is adding a line
export const SKILLS = [
  rateLookupSkill,
  fuelSurchargeSkill,
  dieselTrendsSkill,
  marketAnalysisSkill,
  laneComparisonSkill,
  auditReportSkill,
  rateForecastSkill,
  rateAlertsSkill,
  carrierCapacitySkill,
] as const;

/**
 * Skills promised in the contract but not built yet: their names are valid scopes (a key may be
 * created for them ahead of time) and /pricing lists them, but no transport serves them. When a
 * skill's folder lands, its line in SKILLS takes over and its line here should be deleted (a
 * registered skill of the same name always wins).
 */
export const ANNOUNCED_SKILLS = [] as const satisfies readonly { name: string; minimumTier: Tier }[];
