import { errors } from "../errors.ts";
import type { Principal } from "./principal.ts";
import { tierAtLeast, type Scope, type Tier } from "./tiers.ts";

export type Decision =
  | { allowed: true }
  | { allowed: false; refusal: "SCOPE_REQUIRED" }
  | { allowed: false; refusal: "TIER_REQUIRED" };

/** Scope before tier (SPEC §4): a key that may not call the skill at all is told so first. */
export function decide(tier: Tier, keyScopes: readonly Scope[] | null, skill: { scope: Scope; minimumTier: Tier }): Decision {
  if (keyScopes !== null && !keyScopes.includes(skill.scope)) return { allowed: false, refusal: "SCOPE_REQUIRED" };
  if (!tierAtLeast(tier, skill.minimumTier)) return { allowed: false, refusal: "TIER_REQUIRED" };
  return { allowed: true };
}

export function authorize(principal: Principal, skill: { scope: Scope; minimumTier: Tier }): void {
  const decision = decide(principal.tier, principal.scopes, skill);
  if (decision.allowed) return;
  if (decision.refusal === "SCOPE_REQUIRED") throw errors.scopeRequired(skill.scope, principal.scopes ?? []);
  throw errors.tierRequired(skill.minimumTier, principal.tier);
}
