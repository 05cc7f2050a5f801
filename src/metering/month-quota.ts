import { monthOf, monthRange, type MonthKey } from "./calendar.ts";
import type { WindowStatus } from "./window-status.ts";

/** Reads an account's durable count of answered calls for a month (monthly_usage). */
export type LoadAnswered = (accountId: string, month: MonthKey) => number;

/**
 * One account's month, as this process sees it:
 *   used = committed (durable answered calls) + reserved (admitted calls not answered yet)
 * A call is admitted only while used < limit, so calls in flight together can never overshoot.
 */
interface AccountMonth {
  readonly accountId: string;
  readonly month: MonthKey;
  /** First ms of the next month: when the quota resets. */
  readonly resetAt: number;
  /** monthly_usage as loaded, plus this process's commits since; undefined until (re)loaded. */
  committed: number | undefined;
  readonly reserved: Set<MonthSlot>;
  /** Bumped on every load, so a commit counted before a reload is never taken back out of the reloaded figure. */
  generation: number;
}

type LoadedMonth = AccountMonth & { committed: number };

type SlotState = { kind: "reserved" } | { kind: "committed"; generation: number | undefined } | { kind: "released" };

/**
 * One admitted call's place in its account's month: reserved → committed (inside the answer's
 * transaction), or reserved → released (not answered).
 */
export class MonthSlot {
  private state: SlotState = { kind: "reserved" };

  constructor(private readonly entry: AccountMonth) {}

  get accountId(): string {
    return this.entry.accountId;
  }

  get month(): MonthKey {
    return this.entry.month;
  }

  /** This call's durable write happened in the caller's (still open) transaction. */
  commit(): void {
    if (this.state.kind !== "reserved") return;
    const entry = this.entry;
    entry.reserved.delete(this);
    if (entry.committed !== undefined) entry.committed += 1;
    this.state = { kind: "committed", generation: entry.committed === undefined ? undefined : entry.generation };
  }

  /**
   * The call was not answered, or its transaction rolled back after commit(): give the slot back.
   * A commit is taken back out of `committed` only if the month was not reloaded since (the reloaded
   * figure never contained a rolled-back commit). Idempotent.
   */
  release(): void {
    const state = this.state;
    this.state = { kind: "released" };
    if (state.kind === "reserved") this.entry.reserved.delete(this);
    if (state.kind !== "committed") return;
    if (state.generation === this.entry.generation && this.entry.committed !== undefined) this.entry.committed -= 1;
  }
}

export class MonthQuotas {
  /** The current month of every account seen; an older month's entry lives on only in its slots. */
  private readonly byAccount = new Map<string, AccountMonth>();

  constructor(private readonly loadAnswered: LoadAnswered) {}

  /** Reserve one answered call for the account's month, or return no slot when the month is used up. */
  tryReserve(accountId: string, limit: number, now: number): { slot: MonthSlot | null; status: WindowStatus } {
    const entry = this.loadedAt(accountId, now);
    if (used(entry) >= limit) return { slot: null, status: statusOf(entry, limit) };
    const slot = new MonthSlot(entry);
    entry.reserved.add(slot);
    return { slot, status: statusOf(entry, limit) };
  }

  status(accountId: string, limit: number, now: number): WindowStatus {
    return statusOf(this.loadedAt(accountId, now), limit);
  }

  /**
   * The durable count was just read (on PostgreSQL, with every admission): take it as the
   * account's committed figure; this process's reservations still count on top of it.
   */
  observe(accountId: string, answered: number, now: number): void {
    const entry = this.entryAt(accountId, now);
    entry.committed = answered;
    entry.generation += 1;
  }

  /**
   * Another process changed the database: forget every committed count (reloaded on next use).
   * Reservations stay, because the calls they stand for are still in flight here.
   */
  invalidate(): void {
    for (const entry of this.byAccount.values()) entry.committed = undefined;
  }

  private entryAt(accountId: string, now: number): AccountMonth {
    const month = monthOf(now);
    let entry = this.byAccount.get(accountId);
    // `<`, not `!==`: a clock that steps back across the 1st keeps counting in the newer month.
    if (!entry || entry.month < month) {
      entry = {
        accountId,
        month,
        resetAt: monthRange(now).end,
        committed: undefined,
        reserved: new Set(),
        generation: 0,
      };
      this.byAccount.set(accountId, entry);
    }
    return entry;
  }

  private loadedAt(accountId: string, now: number): LoadedMonth {
    const entry = this.entryAt(accountId, now);
    if (entry.committed === undefined) {
      entry.committed = this.loadAnswered(accountId, entry.month);
      entry.generation += 1;
    }
    return entry as LoadedMonth;
  }
}

function used(entry: LoadedMonth): number {
  return entry.committed + entry.reserved.size;
}

function statusOf(entry: LoadedMonth, limit: number): WindowStatus {
  // Only the turn of the month gives slots back (releases aside), so that is when remaining next goes up.
  return { window: "month", limit, remaining: Math.max(0, limit - used(entry)), resetAt: entry.resetAt };
}
