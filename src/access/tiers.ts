/** Tiers, lowest to highest. The order is the gate: a skill opens at its minimum tier and every tier above. */
export const TIERS = ["explorer", "starter", "professional", "enterprise"] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

export function tierAtLeast(current: Tier, required: Tier): boolean {
  return TIERS.indexOf(current) >= TIERS.indexOf(required);
}
