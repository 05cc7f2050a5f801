/** Tiers, lowest to highest. The order is the gate: a skill opens at its minimum tier and every tier above. */
export const TIERS = ["explorer", "starter", "professional", "enterprise"] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

export function tierAtLeast(current: Tier, required: Tier): boolean {
  return TIERS.indexOf(current) >= TIERS.indexOf(required);
}

/** Every skill's scope name and minimum tier (SPEC §3). A key's scopes are drawn from these names. */
export const SKILL_MINIMUM_TIER = {
  "rate-lookup": "explorer",
  "fuel-surcharge": "explorer",
  "diesel-trends": "explorer",
  "market-analysis": "starter",
  "lane-comparison": "starter",
  "rate-alerts": "starter",
  "carrier-capacity": "starter",
  "audit-report": "professional",
  "rate-forecast": "professional",
} as const satisfies Record<string, Tier>;

export type Scope = keyof typeof SKILL_MINIMUM_TIER;
export const SCOPES = Object.keys(SKILL_MINIMUM_TIER) as Scope[];

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SKILL_MINIMUM_TIER, value);
}

/** The scopes a tier may put on a key. */
export function scopesForTier(tier: Tier): Scope[] {
  return SCOPES.filter((scope) => tierAtLeast(tier, SKILL_MINIMUM_TIER[scope]));
}
