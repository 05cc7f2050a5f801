import type { Db } from "../db/client.ts";
import type { BatchParticipant } from "../db/group-commit.ts";
import type { MonthKey } from "./calendar.ts";

const SELECT_ANSWERED = "SELECT answered FROM monthly_usage WHERE account_id = ? AND month = ?";
const ADD_ANSWERED = `INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, ?, ?)
  ON CONFLICT (account_id, month) DO UPDATE SET answered = answered + excluded.answered`;

/** One account's month inside the open batch: its durable count when the batch first counted it, and the batch's calls since. */
interface BatchMonth {
  accountId: string;
  month: MonthKey;
  durable: number;
  added: number;
}

/**
 * monthly_usage on the SQLite file, written once per group-commit batch and (account, month): the
 * batch's answered calls as one sum just before COMMIT, instead of a read and an upsert per call
 * (docs/performance.md, "Rows of an answered call"). Each call still learns its exact count (the
 * durable count, read once per batch under the write lock, plus the calls before it in the batch),
 * which is what the quota-threshold events need. Joined to the group committer; a batch that rolls
 * back forgets its sums, and the writes that run again count again.
 *
 * The durable count a batch starts from is read once per (account, month) and then kept up to date
 * from the batches this process commits (it is the only writer of the file's counts): at low
 * concurrency a batch holds one call, and the read was a statement per call. invalidate() forgets
 * it, as the meter's mirror is forgotten, when another process may have written the file.
 *
 * Outside a batch (a transaction of its own: tests, tools), a call's count is written at once.
 */
export class BatchMonthCounts implements BatchParticipant {
  private readonly months = new Map<string, BatchMonth>();
  /** (account, month) → its durable count, as this process's last committed batch left it. */
  private readonly committed = new Map<string, number>();
  private batchOpen = false;
  private readonly selectAnswered;
  private readonly addAnswered;

  constructor(db: Db) {
    this.selectAnswered = db.$client.prepare<{ answered: number }, [string, string]>(SELECT_ANSWERED);
    this.addAnswered = db.$client.prepare<unknown, [string, string, number]>(ADD_ANSWERED);
  }

  /**
   * The month's answered calls as the limiter loads them: the row, plus what the open batch has
   * counted but not written yet (a reload can happen while a batch awaits an asynchronous write).
   */
  answered(accountId: string, month: MonthKey): number {
    return this.durable(accountId, month) + (this.months.get(monthKey(accountId, month))?.added ?? 0);
  }

  private durable(accountId: string, month: MonthKey): number {
    return this.selectAnswered.get(accountId, month)?.answered ?? 0;
  }

  /** Count one answered call, inside its write transaction; returns the month's count with this call. */
  count(accountId: string, month: MonthKey): number {
    const key = monthKey(accountId, month);
    if (!this.batchOpen) {
      this.committed.delete(key);
      const answered = this.durable(accountId, month) + 1;
      this.addAnswered.run(accountId, month, 1);
      return answered;
    }
    let entry = this.months.get(key);
    if (!entry) {
      entry = { accountId, month, durable: this.committed.get(key) ?? this.durable(accountId, month), added: 0 };
      this.months.set(key, entry);
    }
    entry.added += 1;
    return entry.durable + entry.added;
  }

  batchStarted(): void {
    this.batchOpen = true;
  }

  beforeCommit(): void {
    for (const { accountId, month, added } of this.months.values()) this.addAnswered.run(accountId, month, added);
  }

  afterCommit(): void {
    if (this.committed.size > MAX_KEPT) this.committed.clear();
    for (const [key, { durable, added }] of this.months) this.committed.set(key, durable + added);
    this.reset();
  }

  /** Another process may have written the counts: read them again. */
  invalidate(): void {
    this.committed.clear();
  }

  afterRollback(): void {
    this.reset();
  }

  private reset(): void {
    this.months.clear();
    this.batchOpen = false;
  }
}

/** Accounts' months kept; past it the memory starts over (the table still has them). */
const MAX_KEPT = 10_000;

const monthKey = (accountId: string, month: MonthKey) => `${accountId}\n${month}`;
