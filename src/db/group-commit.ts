import type { Db, Store } from "./client.ts";
import { andThen, eachInTurn, isPromise, type MaybePromise } from "./maybe-async.ts";
import { WalCheckpointer } from "./wal-checkpointer.ts";
import { WalSync } from "./wal-sync.ts";
import { exclusively, holdWhile, isLocked } from "./write-lock.ts";
import { inTransaction, joinedTransaction } from "./transaction.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** One request's writes: given the batch's transaction (on SQLite, the database itself). */
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
  /** `failedWrites` of the `writes` rolled back alone in their savepoints; `seconds` until durable. */
  committed(writes: number, seconds: number, failedWrites: number): void;
  /** A whole batch, or one write in its savepoint, failed. */
  failed(error: unknown): void;
  /** Where a durable batch's time went (docs/performance.md); optional. */
  stages?(stages: BatchStages): void;
  /** Batches were held `ms` for the WAL to start over (docs/performance.md, "Checkpoints"); optional. */
  held?(ms: number): void;
}

/** One durable batch's time, stage by stage, in milliseconds. */
export interface BatchStages {
  /** Per write: from commit() to its batch starting (the wait for this turn of the loop, or for the batch before). */
  queuedMs: readonly number[];
  /** Running the writes and the participants' work (tiles, the checkpoint signature) up to COMMIT. */
  writesMs: number;
  /** The COMMIT statement; on SQLite a WAL checkpoint that falls due runs inside it. */
  commitMs: number;
  /** From COMMIT returning to the batch being on disk (the fsync off the event loop; 0 when COMMIT synced itself). */
  syncMs: number;
}

/** Timestamps (performance.now()) of one batch, filled in as it goes. */
interface BatchClock {
  started: number;
  commitStarted: number;
  committed: number;
}

/**
 * Something that keeps state alongside a batch (the receipt log's head): told when the batch's
 * transaction opens (the log takes its lock and reads the head there), when each write starts and
 * rolls back, and allowed a last word inside the transaction before COMMIT (the log signs its
 * checkpoint there). Throwing from batchStarted or beforeCommit rolls the whole batch back.
 * afterDurable runs once the committed batch is on disk, before any of its callers hear, in commit
 * order (the log publishes its checkpoint there).
 */
export interface BatchParticipant {
  batchStarted?(tx: Store): void | Promise<void>;
  writeStarted(): void;
  writeRolledBack(): void;
  beforeCommit(tx: Store): void | Promise<void>;
  afterCommit(): void;
  afterDurable?(): void;
  afterRollback(): void;
}

/**
 * Group commit: the writes of every request that reached the commit step while the previous batch
 * was committing (or during one turn of the event loop) go into one transaction, so one fsync makes
 * all of them durable. Each request still waits for that commit before it answers.
 * On SQLite each write runs in its own savepoint, so one failing write rolls back alone; savepoints
 * are free there. On PostgreSQL a savepoint is a round trip per write, so a batch runs without them
 * and, in the rare case a write fails, is rolled back and replayed one write per transaction.
 * Under light load a batch holds one write and this is an ordinary transaction.
 *
 * On a WAL file the fsync runs off the event loop (wal-sync.ts): the next batch is parsed, priced
 * and committed while the previous one reaches the disk. If an fsync ever fails, nothing written
 * since can be trusted to be on disk (the kernel may have dropped the pages), so every later
 * commit is refused with the same error until the server is restarted.
 */
export class GroupCommitter {
  private queue: PendingWrite<unknown>[] = [];
  private flushScheduled = false;
  /** The batch being committed asynchronously, if any; the next waits for it. */
  private inFlight: Promise<void> | null = null;
  private readonly batches = { count: 0, writes: 0 };
  private readonly participants: BatchParticipant[] = [];
  private walSync: WalSync | undefined | null = null;
  private checkpointer: WalCheckpointer | undefined;
  private syncFailure: unknown = null;
  // SQLite: prepared once; bun:sqlite's transaction() builds four wrapper functions per call, which
  // cost more per write than the savepoint itself.
  private readonly sql;
  /** SQLite: the handle writes get, inside the batch's transaction. */
  private readonly batchTx: Store;

  constructor(
    private readonly db: Store,
    private readonly observer?: CommitObserver,
  ) {
    this.sql = db.engine === "sqlite" ? sqliteStatements(db as Db) : null;
    this.batchTx = db.engine === "sqlite" ? joinedTransaction(db as Db) : db;
  }

  join(participant: BatchParticipant): void {
    this.participants.push(participant);
  }

  /** Run `write` inside the next group transaction; settles after that transaction is durable. */
  commit<T>(write: GroupWrite<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ queuedAt: performance.now(), write, resolve, reject } as PendingWrite<unknown>);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush(true));
      }
    });
  }

  /**
   * Commit whatever is queued now (shutdown, tests), one batch at a time. On SQLite, while no batch
   * is in flight and every write is synchronous, this commits before it returns.
   */
  flush(offLoop = false): MaybePromise<void> {
    const run = this.inFlight ? this.inFlight.then(() => this.flushQueued(offLoop)) : this.flushQueued(offLoop);
    if (!isPromise(run)) return;
    const tracked: Promise<void> = run.finally(() => {
      if (this.inFlight === tracked) this.inFlight = null;
    });
    this.inFlight = tracked;
    return tracked;
  }

  /** Flush, and let go of the WAL file (shutdown, before the database closes). */
  async close(): Promise<void> {
    await this.flush();
    this.walSync?.close();
    this.walSync = undefined;
    await this.checkpointer?.close();
    this.checkpointer = undefined;
  }

  private flushQueued(offLoop: boolean): MaybePromise<void> {
    this.flushScheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const started = performance.now();
    const clock: BatchClock = { started, commitStarted: started, committed: started };
    if (this.syncFailure !== null) return this.refuse(batch, this.syncFailure);
    // SQLite: opened at the first batch (the WAL file exists once the database has been written).
    if (this.walSync === null) {
      this.walSync = this.sql ? WalSync.for((this.db as Db).$client) : undefined;
      if (this.walSync) this.checkpointer = WalCheckpointer.for((this.db as Db).$client);
    }
    const walSync = offLoop ? this.walSync : undefined;
    const checkpointer = walSync ? this.checkpointer : undefined;
    return andThen(
      undefined,
      () =>
        andThen(walSync ? walSync.unsynced(() => checkpointer!.deferred(() => this.runBatch(batch, clock))) : this.runBatch(batch, clock), (outcomes) => {
          clock.committed = performance.now();
          if (!walSync) return this.settle(batch, outcomes, clock);
          checkpointer!.committed((until) => this.holdBatchesUntil(until));
          // Not awaited: the next batch commits while this one reaches the disk; durable() settles in commit order.
          void walSync.durable().then(
            () => (this.syncFailure === null ? this.settle(batch, outcomes, clock) : this.refuse(batch, this.syncFailure)),
            (error) => {
              this.syncFailure ??= error;
              this.refuse(batch, error);
            },
          );
        }),
      (error) => this.refuse(batch, error),
    );
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
    this.observer?.failed(error);
    for (const pending of batch) pending.reject(error);
  }

  private settle(batch: PendingWrite<unknown>[], outcomes: Outcome[], clock: BatchClock): void {
    const durable = performance.now();
    for (const participant of this.participants) participant.afterDurable?.();
    this.observer?.committed(batch.length, (durable - clock.started) / 1000, outcomes.filter((outcome) => !outcome.ok).length);
    this.observer?.stages?.({
      queuedMs: batch.map((pending) => clock.started - pending.queuedAt),
      writesMs: clock.commitStarted - clock.started,
      commitMs: clock.committed - clock.commitStarted,
      syncMs: durable - clock.committed,
    });
    this.batches.count += 1;
    this.batches.writes += batch.length;
    batch.forEach((pending, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  private runBatch(batch: PendingWrite<unknown>[], clock: BatchClock): MaybePromise<Outcome[]> {
    if (!this.sql) return this.runPostgresBatch(batch, clock);
    const db = this.db as Db;
    // Another transaction on this connection is awaiting something: take turns with it.
    if (isLocked(db)) return exclusively(db, async () => this.runSqliteBatch(batch, clock));
    const outcomes = this.runSqliteBatch(batch, clock);
    // A write turned out asynchronous: nobody else may open a transaction here until this one ends.
    if (isPromise(outcomes)) holdWhile(db, outcomes);
    return outcomes;
  }

  private runSqliteBatch(batch: PendingWrite<unknown>[], clock: BatchClock): MaybePromise<Outcome[]> {
    const sql = this.sql!;
    const outcomes: Outcome[] = [];
    const rollBack = (error: unknown): never => {
      if ((this.db as Db).$client.inTransaction) sql.rollback.run();
      for (const participant of this.participants) participant.afterRollback();
      throw error;
    };
    sql.begin.run();
    const written = andThen(
      undefined,
      () =>
        andThen(
          eachInTurn(this.participants, (participant) => participant.batchStarted?.(this.batchTx)),
          () =>
            andThen(
              eachInTurn(batch, (pending) => andThen(this.inSavepoint(pending.write), (outcome) => void outcomes.push(outcome))),
              () => eachInTurn(this.participants, (participant) => participant.beforeCommit(this.batchTx)),
            ),
        ),
      rollBack,
    );
    return andThen(written, () => {
      try {
        clock.commitStarted = performance.now();
        sql.commit.run();
      } catch (error) {
        rollBack(error);
      }
      for (const participant of this.participants) participant.afterCommit();
      return outcomes;
    });
  }

  private inSavepoint(write: GroupWrite<unknown>): MaybePromise<Outcome> {
    const sql = this.sql!;
    sql.savepoint.run();
    for (const participant of this.participants) participant.writeStarted();
    return andThen(
      undefined,
      () =>
        andThen(write(this.batchTx), (value): Outcome => {
          sql.release.run();
          return { ok: true, value };
        }),
      (error): Outcome => {
        // SQLITE_FULL and some I/O errors roll the whole transaction back: the batch fails with this error.
        if (!(this.db as Db).$client.inTransaction) throw error;
        sql.rollbackTo.run();
        sql.release.run();
        for (const participant of this.participants) participant.writeRolledBack();
        this.observer?.failed(error);
        return { ok: false, error };
      },
    );
  }

  /** One transaction for the whole batch; if a write fails, each write again in its own. */
  private async runPostgresBatch(batch: PendingWrite<unknown>[], clock: BatchClock): Promise<Outcome[]> {
    try {
      return await this.postgresTransaction(
        batch.map((pending) => pending.write),
        clock,
      );
    } catch (error) {
      if (batch.length === 1) return [{ ok: false, error }];
      this.observer?.failed(error);
      const outcomes: Outcome[] = [];
      for (const pending of batch) {
        try {
          outcomes.push(...(await this.postgresTransaction([pending.write])));
        } catch (alone) {
          outcomes.push({ ok: false, error: alone });
        }
      }
      return outcomes;
    }
  }

  private async postgresTransaction(writes: GroupWrite<unknown>[], clock?: BatchClock): Promise<Outcome[]> {
    try {
      const outcomes = await inTransaction(this.db, async (tx) => {
        for (const participant of this.participants) await participant.batchStarted?.(tx);
        const values: Outcome[] = [];
        for (const write of writes) {
          for (const participant of this.participants) participant.writeStarted();
          values.push({ ok: true, value: await write(tx) });
        }
        for (const participant of this.participants) await participant.beforeCommit(tx);
        if (clock) clock.commitStarted = performance.now();
        return values;
      });
      for (const participant of this.participants) participant.afterCommit();
      return outcomes;
    } catch (error) {
      for (const participant of this.participants) participant.afterRollback();
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
    savepoint: prepare("SAVEPOINT group_write"),
    release: prepare("RELEASE group_write"),
    rollbackTo: prepare("ROLLBACK TO group_write"),
  };
}
