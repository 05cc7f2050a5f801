/**
 * When to try again after a failed attempt (the schedule Standard Webhooks suggests): after 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h, about 27.6 hours in all, each delay spread by ±20 % so that many
 * deliveries failing together do not all come back at the same instant. After the last one the
 * delivery is marked failed.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
const JITTER = 0.2;

/** The delay before attempt number `attempts + 1`, or null when `attempts` attempts were the last. */
export function retryDelay(attempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** An endpoint whose deliveries have failed without a single success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;
