import type { WindowStatus } from "./window-status.ts";

export const MINUTE_MS = 60_000;

/**
 * Why sliding (two weighted cells, as Unkey does) and not a fixed or two-bucket window: a fixed
 * minute lets a key send `limit` calls at 12:00:59 and `limit` more at 12:01:00, twice the
 * advertised rate. Here the previous cell still weighs in proportion to how much of it overlaps the
 * last 60 s, so any 60 s span sees about `limit` calls, at the cost of two counters per key.
 *
 *   effective(t) = current + previous × (1 − elapsed/60 s)
 *
 * Cells are aligned to UTC minutes. All arithmetic is kept in integers (counts × ms) so a call
 * exactly at the limit is never refused by a rounding error.
 *
 * A refused call is not counted: a client retrying in a tight loop would otherwise keep itself
 * locked out forever. Every admitted call counts, whatever happens to it later.
 */
interface Cells {
  /** floor(t / 60 s) of the current cell. */
  index: number;
  current: number;
  previous: number;
}

export class MinuteWindows {
  private readonly byKey = new Map<string, Cells>();
  private lastSweepIndex = 0;

  /** Count one call if it fits the limit; the status is taken after the decision. */
  tryCount(keyId: string, limit: number, now: number): { admitted: boolean; status: WindowStatus } {
    this.sweepIdle(now);
    const cells = this.cellsAt(keyId, now);
    const admitted = scaledEffective(cells, now) + MINUTE_MS <= limit * MINUTE_MS;
    if (admitted) {
      cells.current += 1;
      this.byKey.set(keyId, cells);
    }
    return { admitted, status: statusOf(cells, limit, now) };
  }

  status(keyId: string, limit: number, now: number): WindowStatus {
    return statusOf(this.cellsAt(keyId, now), limit, now);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The cells of a key as of `now`: a new object, so a look ahead (a status) never moves the stored cells. */
  private cellsAt(keyId: string, now: number): Cells {
    const index = Math.floor(now / MINUTE_MS);
    const stored = this.byKey.get(keyId);
    if (!stored) return { index, current: 0, previous: 0 };
    if (stored.index >= index) return { ...stored }; // same cell, or a clock that stepped back: keep counting
    if (stored.index === index - 1) return { index, current: 0, previous: stored.current };
    return { index, current: 0, previous: 0 };
  }

  /** Once a minute, drop keys with nothing in either cell: they are back to a full window. */
  private sweepIdle(now: number): void {
    const index = Math.floor(now / MINUTE_MS);
    if (index === this.lastSweepIndex) return;
    this.lastSweepIndex = index;
    for (const [keyId, cells] of this.byKey) {
      if (cells.index < index - 1) this.byKey.delete(keyId);
    }
  }
}

/** Elapsed ms into the current cell, clamped for a clock that stepped back. */
function elapsedInCell(cells: Cells, now: number): number {
  return Math.min(MINUTE_MS, Math.max(0, Math.floor(now) - cells.index * MINUTE_MS));
}

/** effective(now) × 60 000, exact in integers. */
function scaledEffective(cells: Cells, now: number): number {
  return cells.current * MINUTE_MS + cells.previous * (MINUTE_MS - elapsedInCell(cells, now));
}

function statusOf(cells: Cells, limit: number, now: number): WindowStatus {
  const headroom = limit * MINUTE_MS - scaledEffective(cells, now);
  const remaining = Math.max(0, Math.floor(headroom / MINUTE_MS));
  return { window: "minute", limit, remaining, resetAt: nextIncrease(cells, limit, remaining, now) };
}

/**
 * The first ms at which `remaining` goes up by one with no further calls, i.e. effective ≤ target
 * with target = limit − remaining − 1. With nothing used, the end of the current cell.
 */
function nextIncrease(cells: Cells, limit: number, remaining: number, now: number): number {
  const cellStart = cells.index * MINUTE_MS;
  const target = limit - remaining - 1;
  if (target < 0) return cellStart + MINUTE_MS;
  const { current, previous } = cells;
  let at: number;
  if (current <= target && previous > 0) {
    // Still in this cell: current·W + previous·(W − e) ≤ target·W  ⇔  e ≥ W − (target − current)·W / previous
    at = cellStart + MINUTE_MS - Math.floor(((target - current) * MINUTE_MS) / previous);
  } else {
    // This cell's own calls must fade: next cell, current·(W − e) ≤ target·W  ⇔  e ≥ W − target·W / current
    at = cellStart + 2 * MINUTE_MS - Math.floor((target * MINUTE_MS) / current);
  }
  return Math.max(at, Math.floor(now) + 1);
}
