import type { Db, Store } from "./client.ts";
import { WalCheckpointer } from "./wal-checkpointer.ts";
import { WalSync } from "./wal-sync.ts";
import { exclusively } from "./write-lock.ts";
import { allInOrder } from "./pipelined.ts";
import { engineOf } from "./open.ts";
import { inTransaction, joinedTransaction } from "./transaction.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * How long a new batch waits for company while an earlier batch is still on its way to the disk
 * (docs/performance.md, "Waiting for company"). One timer tick: Bun's timers do not go below 1 ms.
 */
const COMPANY_WAIT_MS = 1;

export interface GroupCommitOptions {
  /** 0: every batch commits in the turn after its first write, as before the wait existed (tests of overlapping syncs). */
  companyWaitMs?: number;
}

/** One request's writes, given the batch's transaction; what it returns is awaited. */
export type GroupWrite<T> = (tx: Store) => T | Promise<T>;

interface PendingWrite<T> {
  /** performance.now() when the write was queued. */
  queuedAt: number;
  write: GroupWrite<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Told how each group transaction went (readiness, metrics); optional. */
export interface CommitObserver {
  /** `failedWrites` of the `writes` failed alone (the others were replayed without them); `seconds` until durable. */
  committed(writes: number, seconds: number, failedWrites: number): void;
  /** A whole batch, or one write of it, failed. */
  failed(error: unknown): void;
  /** Where a durable batch's time went (docs/performance.md); optional. */
  stages?(stages: BatchStages): void;
  /** Batches were held `ms` for the WAL to start over (docs/performance.md, "Checkpoints"); optional. */
  held?(ms: number): void;
}

/** One durable batch's time, stage by stage, in milliseconds. */
export interface BatchStages {
  /**
   * Per write: from commit() to its batch starting (the wait for this turn of the loop, or for the
   * batch before; 0 for a write that joined while the batch waited for the log).
   */
  queuedMs: readonly number[];
  /** Running the writes and the participants' work (tiles, the checkpoint signature) up to COMMIT. */
  writesMs: number;
  /** The COMMIT statement; on SQLite a WAL checkpoint that falls due runs inside it. */
  commitMs: number;
  /** From COMMIT returning to the batch being on disk (the fsync off the event loop; 0 when COMMIT synced itself). */
  syncMs: number;
}

/** One batch on its way: its writes, each one's outcome once it ran, and its timestamps. */
interface BatchRun {
  /** Grows until the first attempt's participants have started (see attempt()); fixed after. */
  batch: PendingWrite<unknown>[];
  outcomes: Outcome[];
  clock: BatchClock;
}

/** Timestamps (performance.now()) of one batch, filled in as it goes. */
interface BatchClock {
  started: number;
  commitStarted: number;
  committed: number;
}

/**
 * Something that keeps state alongside a batch (the receipt log's head): told when the batch's
 * transaction opens (the log takes its lock and reads the head there), allowed a last word inside
 * the transaction before COMMIT (the log signs its checkpoint there), and told whether it committed
 * or rolled back. A batch whose write failed rolls back whole and runs again without that write, so
 * state kept for the batch is dropped in afterRollback and built again by the writes that run again.
 * Throwing from batchStarted or beforeCommit rolls the whole batch back.
 * afterDurable runs once the committed batch is on disk, before any of its callers hear, in commit
 * order (the log publishes its checkpoint there).
 */
export interface BatchParticipant {
  /** Joined to `batch`: a participant that keeps state per write reads `batch.writing` during the writes. */
  joined?(batch: BatchWrites): void;
  batchStarted?(tx: Store): void | Promise<void>;
  beforeCommit?(tx: Store): void | Promise<void>;
  afterCommit(): void;
  afterDurable?(): void;
  afterRollback(): void;
}

/** Which write of the batch is running (its index in the batch, the same across replays; -1 between writes). */
export interface BatchWrites {
  readonly writing: number;
}

/**
 * Thrown by a participant's beforeCommit when some writes of the batch cannot commit (on PostgreSQL,
 * calls past their account's month quota): the batch rolls back, each of those writes fails alone
 * with its error, and the others run again together.
 */
export class WritesRefused extends Error {
  constructor(readonly refusals: ReadonlyMap<number, unknown>) {
    super(`${refusals.size} write(s) of the batch refused`);
  }
}

/**
 * Group commit: the writes of every request that reached the commit step while the previous batch
 * was committing (or during one turn of the event loop, or one timer tick when calls overlap: see
 * awaitsCompany), and of those arriving while its participants start (joinLateWrites), go into one
 * transaction, so one fsync makes all of them durable. Each request still waits for that commit
 * before it answers.
 * A batch runs without a savepoint per write, on both engines; in the rare case a write fails, the
 * batch rolls back and runs again without it (attempt()), so a failing write fails alone.
 * Under light load a batch holds one write and this is an ordinary transaction.
 *
 * On a WAL file the fsync runs off the event loop (wal-sync.ts): the next batch is parsed, priced
 * and committed while the previous one reaches the disk. If an fsync ever fails, nothing written
 * since can be trusted to be on disk (the kernel may have dropped the pages), so every later
 * commit is refused with the same error until the server is restarted.
 */
export class GroupCommitter implements BatchWrites {
  /** The index of the write running now in the batch being written, -1 between writes. */
  writing = -1;
  private queue: PendingWrite<unknown>[] = [];
  private flushScheduled = false;
  /** Writes queued or committed whose callers have not heard yet (their batch is not yet durable). */
  private unsettled = 0;
  /** The batch being committed asynchronously, if any; the next waits for it. */
  private inFlight: Promise<void> | null = null;
  private readonly batches = { count: 0, writes: 0 };
  private readonly participants: BatchParticipant[] = [];
  /** SQLite file: the WAL's syncer and checkpointer, opened together at the first batch (null: not yet). */
  private wal: { sync: WalSync; checkpointer: WalCheckpointer } | undefined | null = null;
  private syncFailure: unknown = null;
  /** The SQLite file's handle (null on PostgreSQL). */
  private readonly file: Db | null;
  // SQLite: prepared once; bun:sqlite's transaction() builds four wrapper functions per call.
  private readonly sql;
  /** SQLite: the handle writes get, inside the batch's transaction. */
  private readonly batchTx: Store;

  constructor(
    private readonly db: Store,
    private readonly observer?: CommitObserver,
    private readonly options: GroupCommitOptions = {},
  ) {
    const engine = engineOf(db);
    this.file = engine.engine === "sqlite" ? engine.db : null;
    this.sql = this.file ? sqliteStatements(this.file) : null;
    this.batchTx = this.file ? joinedTransaction(this.file) : db;
  }

  join(participant: BatchParticipant): void {
    this.participants.push(participant);
    participant.joined?.(this);
  }

  /** Run `write` inside the next group transaction; settles after that transaction is durable. */
  commit<T>(write: GroupWrite<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ queuedAt: performance.now(), write, resolve, reject } as PendingWrite<unknown>);
      this.unsettled += 1;
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        if (this.awaitsCompany())
          setTimeout(() => void this.flush(true), this.options.companyWaitMs ?? COMPANY_WAIT_MS);
        else setImmediate(() => void this.flush(true));
      }
    });
  }

  /**
   * Calls overlap (a write is queued while an earlier batch of this file is still becoming durable):
   * the next batch waits a timer tick, so the calls arriving meanwhile share its checkpoint
   * signature, COMMIT and fsync. A caller alone (one call at a time) never waits. SQLite file only:
   * on PostgreSQL a batch already waits for the one in flight.
   */
  private awaitsCompany(): boolean {
    return this.options.companyWaitMs !== 0 && Boolean(this.wal) && this.unsettled > this.queue.length;
  }

  /** Commit whatever is queued now (shutdown, tests), one batch at a time; settles once it has committed. */
  flush(offLoop = false): Promise<void> {
    const previous = this.inFlight;
    const run = previous ? previous.then(() => this.flushQueued(offLoop)) : this.flushQueued(offLoop);
    const tracked: Promise<void> = run.finally(() => {
      if (this.inFlight === tracked) this.inFlight = null;
    });
    this.inFlight = tracked;
    return tracked;
  }

  /** Flush, and let go of the WAL file (shutdown, before the database closes). */
  async close(): Promise<void> {
    await this.flush();
    const wal = this.wal;
    this.wal = undefined;
    wal?.sync.close();
    await wal?.checkpointer.close();
  }

  private async flushQueued(offLoop: boolean): Promise<void> {
    this.flushScheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const started = performance.now();
    const clock: BatchClock = { started, commitStarted: started, committed: started };
    if (this.syncFailure !== null) return this.refuse(batch, this.syncFailure);
    // SQLite: opened at the first batch (the WAL file exists once the database has been written).
    if (this.wal === null) {
      const sync = this.file ? WalSync.for(this.file.$client) : undefined;
      this.wal = sync && this.file ? { sync, checkpointer: WalCheckpointer.for(this.file.$client) } : undefined;
    }
    const wal = offLoop ? this.wal : undefined;
    try {
      const outcomes = await this.runBatch(batch, clock, wal);
      clock.committed = performance.now();
      if (!wal) return this.settle(batch, outcomes, clock);
      wal.checkpointer.committed((until) => this.holdBatchesUntil(until));
      // Not awaited: the next batch commits while this one reaches the disk; durable() settles in commit order.
      void wal.sync.durable().then(
        () => (this.syncFailure === null ? this.settle(batch, outcomes, clock) : this.refuse(batch, this.syncFailure)),
        (error) => {
          this.syncFailure ??= error;
          this.refuse(batch, error);
        },
      );
    } catch (error) {
      this.refuse(batch, error);
    }
  }

  /** Later batches wait for `until` (the WAL starting over); requests keep queuing meanwhile. */
  private holdBatchesUntil(until: Promise<void>): void {
    const previous = this.inFlight;
    const heldFrom = performance.now();
    const tracked: Promise<void> = (previous ? previous.then(() => until) : until).finally(() => {
      this.observer?.held?.(performance.now() - heldFrom);
      if (this.inFlight === tracked) this.inFlight = null;
    });
    this.inFlight = tracked;
  }

  /** The whole batch failed (or can no longer be made durable): every caller hears the error. */
  private refuse(batch: PendingWrite<unknown>[], error: unknown): void {
    this.unsettled -= batch.length;
    this.observer?.failed(error);
    for (const pending of batch) pending.reject(error);
  }

  private settle(batch: PendingWrite<unknown>[], outcomes: Outcome[], clock: BatchClock): void {
    const durable = performance.now();
    this.unsettled -= batch.length;
    for (const participant of this.participants) participant.afterDurable?.();
    this.observer?.committed(
      batch.length,
      (durable - clock.started) / 1000,
      outcomes.filter((outcome) => !outcome.ok).length,
    );
    this.observer?.stages?.({
      queuedMs: batch.map((pending) => Math.max(0, clock.started - pending.queuedAt)),
      writesMs: clock.commitStarted - clock.started,
      commitMs: clock.committed - clock.commitStarted,
      syncMs: durable - clock.committed,
    });
    this.batches.count += 1;
    this.batches.writes += batch.length;
    for (const [index, pending] of batch.entries()) {
      const outcome = outcomes[index];
      if (!outcome) throw new Error(`group commit: write ${index} of the batch has no outcome after it ran`);
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    }
  }

  /**
   * The batch's transactions, on the SQLite file under the connection's write lock (write-lock.ts)
   * from before BEGIN until the WAL settings are back: its writes await, and no other transaction
   * on the connection may start between them (it would join this one, and be lost if it rolled
   * back, or commit under the relaxed sync setting).
   */
  private runBatch(
    batch: PendingWrite<unknown>[],
    clock: BatchClock,
    wal: { sync: WalSync; checkpointer: WalCheckpointer } | undefined,
  ): Promise<Outcome[]> {
    const run = async () => {
      const batchRun: BatchRun = { batch, outcomes: [], clock };
      await this.attempt(batchRun, "all", "together");
      return batchRun.outcomes;
    };
    if (!this.file) return run();
    return exclusively(this.file, () => (wal ? wal.sync.unsynced(() => wal.checkpointer.deferred(run)) : run()));
  }

  /**
   * The writes at the indexes `which` names ("all": the whole batch, with the writes queued until
   * its participants have started) in one transaction, with no savepoint per write (on SQLite a
   * SAVEPOINT/RELEASE pair cost more than the row it guarded). If a write throws, the transaction
   * rolls back and that write fails alone: the others run again together, and if that run fails
   * too, in one transaction each. A failure outside every write (BEGIN, a participant, COMMIT)
   * fails the writes of that transaction; on the whole batch, the batch is refused with it.
   */
  private async attempt(run: BatchRun, which: number[] | "all", replay: "together" | "alone"): Promise<void> {
    const { batch, outcomes, clock } = run;
    let writing = -1;
    let indexes = which === "all" ? batch.map((_, index) => index) : which;
    try {
      await this.transaction(async (tx) => {
        for (const participant of this.participants) if (participant.batchStarted) await participant.batchStarted(tx);
        if (which === "all") indexes = this.joinLateWrites(batch);
        for (const index of indexes) {
          writing = index;
          this.writing = index;
          const pending = batch[index];
          if (!pending) throw new Error(`group commit: no write at index ${index} of a ${batch.length}-write batch`);
          outcomes[index] = { ok: true, value: await pending.write(tx) };
          writing = -1;
          this.writing = -1;
        }
        await this.beforeCommit(tx);
        clock.commitStarted = performance.now();
      });
    } catch (error) {
      this.writing = -1;
      for (const participant of this.participants) participant.afterRollback();
      return this.afterFailure(error, writing, run, indexes, replay);
    }
    for (const participant of this.participants) participant.afterCommit();
  }

  /**
   * The first attempt takes in the writes queued while its participants started: on PostgreSQL
   * that is the wait for the receipt log's lock, during which another replica's batch commits, so
   * the calls arriving meanwhile share this batch rather than waiting for the next
   * (docs/postgresql.md, "Batches that wait for the log"). Every write of the batch, by index.
   */
  private joinLateWrites(batch: PendingWrite<unknown>[]): number[] {
    if (this.queue.length > 0) {
      batch.push(...this.queue);
      this.queue = [];
    }
    return batch.map((_, index) => index);
  }

  /** What follows a rolled-back attempt: the failing writes fail alone, the others run again. */
  private async afterFailure(
    error: unknown,
    writing: number,
    run: BatchRun,
    indexes: number[],
    replay: "together" | "alone",
  ): Promise<void> {
    const { batch, outcomes } = run;
    if (error instanceof WritesRefused) {
      const refused = indexes.filter((index) => error.refusals.has(index));
      for (const index of refused) outcomes[index] = { ok: false, error: error.refusals.get(index) };
      const rest = indexes.filter((index) => !error.refusals.has(index));
      // Nothing named in this attempt: a participant's mistake; fail the attempt's writes rather than loop.
      if (refused.length === 0) throw error;
      if (rest.length > 0) await this.attempt(run, rest, replay);
      return;
    }
    if (writing < 0 && indexes.length === batch.length) throw error;
    this.observer?.failed(error);
    const failed = writing < 0 ? indexes : [writing];
    for (const index of failed) outcomes[index] = { ok: false, error };
    const rest = indexes.filter((index) => !failed.includes(index));
    if (rest.length === 0) return;
    if (replay === "together") return this.attempt(run, rest, "alone");
    for (const index of rest) await this.attempt(run, [index], "alone");
  }

  /**
   * The participants' last words, started together: on PostgreSQL their statements (the month
   * counts, the log's rows and checkpoint, the keys' last use) share one round trip under the
   * receipt log's lock (docs/postgresql.md); on the SQLite file each runs as it is called.
   */
  private beforeCommit(tx: Store): Promise<void> {
    return allInOrder(this.participants.map((participant) => participant.beforeCommit?.(tx)));
  }

  /** `work` in one transaction: BEGIN IMMEDIATE … COMMIT on the SQLite file, drizzle's on PostgreSQL. */
  private async transaction(work: (tx: Store) => Promise<void>): Promise<void> {
    const { file, sql } = this;
    if (!file || !sql) return inTransaction(this.db, work);
    sql.begin.run();
    try {
      await work(this.batchTx);
      sql.commit.run();
    } catch (error) {
      // SQLITE_FULL and some I/O errors have already rolled the transaction back.
      if (file.$client.inTransaction) sql.rollback.run();
      throw error;
    }
  }

  /** How many transactions and writes so far (read by /metrics and the benchmark). */
  stats(): { batches: number; writes: number } {
    return { batches: this.batches.count, writes: this.batches.writes };
  }
}

function sqliteStatements(db: Db) {
  const prepare = (text: string) => db.$client.prepare(text);
  return {
    begin: prepare("BEGIN IMMEDIATE"),
    commit: prepare("COMMIT"),
    rollback: prepare("ROLLBACK"),
  };
}
