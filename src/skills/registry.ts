import type { Db } from "../db/client.ts";
import { createAuditReportSkill } from "../receipts/audit-skill.ts";
import type { ReferenceData } from "../reference/view.ts";
import { dieselTrendsSkill } from "./diesel-trends/skill.ts";
import { fuelSurchargeSkill } from "./fuel-surcharge/skill.ts";
import { laneComparisonSkill } from "./lane-comparison/skill.ts";
import { marketAnalysisSkill } from "./market-analysis/skill.ts";
import { rateForecastSkill } from "./rate-forecast/skill.ts";
import { rateAlertsSkill } from "./rate-alerts/skill.ts";
import { rateLookupSkill } from "./rate-lookup/skill.ts";
import type { AnySkill } from "./types.ts";

interface RegistryDeps {
  db: Db;
  reference: ReferenceData;
  /** The finished list, for skills that re-run others (audit-report reproduces answers). */
  skills: () => readonly AnySkill[];
}

/** Every skill Waybill answers. Adding a skill is one folder and one line here. */
export function buildSkillRegistry(deps: RegistryDeps): AnySkill[] {
  return [
    rateLookupSkill,
    fuelSurchargeSkill,
    dieselTrendsSkill,
    marketAnalysisSkill,
    laneComparisonSkill,
    rateForecastSkill,
    ...rateAlertsSkill,
    createAuditReportSkill(deps),
  ] as unknown as AnySkill[];
}
