import type { Db } from "../db/client.ts";
import type { createAuditReportSkill as CreateAuditReportSkill } from "../receipts/audit-skill.ts";
import type { ReferenceData } from "../reference/view.ts";
import { rateLookupSkill } from "./rate-lookup/skill.ts";
import type { AnySkill } from "./types.ts";

interface RegistryDeps {
  db: Db;
  reference: ReferenceData;
  /** The finished list, for skills that re-run others (audit-report reproduces answers). */
  skills: () => readonly AnySkill[];
  createAuditReportSkill: typeof CreateAuditReportSkill;
}

/** Every skill Waybill answers. Adding a skill is one folder and one line here. */
export function buildSkillRegistry(deps: RegistryDeps): AnySkill[] {
  return [
    rateLookupSkill as unknown as AnySkill,
    deps.createAuditReportSkill({ db: deps.db, reference: deps.reference, skills: deps.skills }) as unknown as AnySkill,
  ];
}
