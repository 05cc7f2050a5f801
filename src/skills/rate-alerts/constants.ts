import type { Tier } from "../../access/tiers.ts";

/**
 * How many alerts an account may keep, by tier (docs/alerts-and-webhooks.md). Explorer cannot call the
 * skill at all; the caps keep one account's evaluation work bounded, since every import re-prices
 * every alert.
 */
export const MAX_ALERTS_BY_TIER: Record<Tier, number> = {
  explorer: 0,
  starter: 10,
  professional: 100,
  enterprise: 1000,
};

export const WATCHED_METRICS = ["rate_per_mile", "total_cost", "diesel_price", "diesel_change_percent"] as const;
export type WatchedMetric = (typeof WATCHED_METRICS)[number];
export const LANE_METRICS: readonly WatchedMetric[] = ["rate_per_mile", "total_cost"];

export const DIRECTIONS = ["ABOVE", "BELOW", "CROSSES"] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** A cooldown longer than 30 days would silence an alert for good. */
export const MAX_COOLDOWN_SECONDS = 30 * 86_400;

export const RATE_ALERTS_MODEL = { version: "rate-alerts/1" } as const;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
