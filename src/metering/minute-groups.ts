import { MINUTE_MS } from "./minute-window.ts";
import type { WindowStatus } from "./window-status.ts";

/**
 * Up to this many calls a minute, every admitted call keeps its own instant (the window is exact to
 * the millisecond); above it, calls admitted within the same second share one group, so a key's
 * row holds at most 61 groups whatever its limit (docs/postgresql.md, "Metering across replicas").
 */
export const GROUPED_ABOVE_PER_MINUTE = 60;

/**
 * `calls` admitted calls, the newest of them at `at` (epoch ms) and none earlier than the second
 * `at` falls in. The group counts in full while `at` is inside the window: counting the whole
 * group for as long as any of its calls might still be inside never lets more than the limit
 * through; at worst a group's calls leave the window up to a second late.
 */
export interface MinuteGroup {
  at: number;
  calls: number;
}

/** The groups of PostgreSQL's minute_windows row, from its two arrays (the driver hands bigints over as text). */
export function groupsOfRow(
  admitted: readonly (string | number)[] | null,
  calls: readonly (string | number)[] | null,
): MinuteGroup[] {
  return (admitted ?? []).map((at, i) => ({ at: Number(at), calls: Number(calls?.[i] ?? 1) }));
}

/**
 * Where a key's minute stands at `now`, from its groups (oldest first). `resetAt`: when `remaining`
 * next goes up, i.e. when the group that must leave for one more call to fit turns 60 s old (the
 * oldest, unless a lowered limit left more calls than fit); with nothing used, 60 s from now.
 */
export function windowOfGroups(groups: readonly MinuteGroup[], limit: number, now: number): WindowStatus {
  const inside = groups.filter((group) => group.at > now - MINUTE_MS);
  const used = inside.reduce((sum, group) => sum + group.calls, 0);
  const remaining = Math.max(0, limit - used);
  const [oldest] = inside;
  if (used === 0 || !oldest) return { window: "minute", limit, remaining, resetAt: Math.floor(now) + MINUTE_MS };
  let stillUsed = used;
  let mustLeave = oldest;
  for (const group of inside) {
    mustLeave = group;
    stillUsed -= group.calls;
    if (stillUsed < limit) break;
  }
  return { window: "minute", limit, remaining, resetAt: Math.max(mustLeave.at + MINUTE_MS, Math.floor(now) + 1) };
}
