import { errors, type ApiError } from "../errors.ts";

export type RateLimitHeaders = Record<string, string>;

export type WindowName = "minute" | "month";

/** Where one limit stands for a caller at an instant. */
export interface WindowStatus {
  window: WindowName;
  limit: number;
  /** Calls that would be let through right now, back to back. */
  remaining: number;
  /**
   * Epoch ms at which `remaining` next goes up if no more calls are made; with nothing used, the end
   * of the current period. When `remaining` is 0 this is exactly when the caller may retry.
   */
  resetAt: number;
}

/** `X-RateLimit-Reset`: integer epoch seconds, rounded up so a client that waits until then is let through. */
export function resetSeconds(status: WindowStatus): number {
  return Math.ceil(status.resetAt / 1000);
}

/**
 * `Retry-After` in whole seconds, at least 1 and never pointing before the reset:
 * now/1000 + retryAfter ≥ resetSeconds, since now/1000 ≥ floor(now/1000).
 */
export function retryAfterSeconds(status: WindowStatus, now: number): number {
  return Math.max(1, resetSeconds(status) - Math.floor(now / 1000));
}

/**
 * The window closest to exhaustion: the one with fewer calls remaining; on a tie, the one that
 * resets sooner. (A 429 does not use this: it reports the window that refused.)
 */
export function closestToExhaustion(a: WindowStatus, b: WindowStatus): WindowStatus {
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.resetAt <= b.resetAt ? a : b;
}

export function rateLimitHeaders(status: WindowStatus): RateLimitHeaders {
  return {
    "X-RateLimit-Limit": String(status.limit),
    "X-RateLimit-Remaining": String(status.remaining),
    "X-RateLimit-Reset": String(resetSeconds(status)),
  };
}

/** The 429 of the error table for an exhausted window, carrying that window's headers and Retry-After. */
export function rateLimitedError(status: WindowStatus, now: number): ApiError {
  const refusal = errors.rateLimited(status.window, status.limit, resetSeconds(status), retryAfterSeconds(status, now));
  Object.assign(refusal.headers, rateLimitHeaders(status));
  return refusal;
}
