import { errors } from "../errors.ts";
import type { Principal } from "./principal.ts";
import { tierAtLeast, type Tier } from "./tiers.ts";

/** What the gate needs of a skill: its name (the scope a key must carry) and its minimum tier. */
export interface GatedSkill {
  name: string;
  minimumTier: Tier;
}

export type Decision =
  | { allowed: true }
  | { allowed: false; refusal: "SCOPE_REQUIRED" }
  | { allowed: false; refusal: "TIER_REQUIRED" };

/** Scope before tier (docs/api.md): a key that may not call the skill at all is told so first. */
export function decide(tier: Tier, keyScopes: readonly string[] | null, skill: GatedSkill): Decision {
  if (keyScopes !== null && !keyScopes.includes(skill.name)) return { allowed: false, refusal: "SCOPE_REQUIRED" };
  if (!tierAtLeast(tier, skill.minimumTier)) return { allowed: false, refusal: "TIER_REQUIRED" };
  return { allowed: true };
}

export function authorize(principal: Principal, skill: GatedSkill): void {
  const decision = decide(principal.tier, principal.scopes, skill);
  if (decision.allowed) return;
  if (decision.refusal === "SCOPE_REQUIRED") throw errors.scopeRequired(skill.name, principal.scopes ?? []);
  throw errors.tierRequired(skill.minimumTier, principal.tier);
}
