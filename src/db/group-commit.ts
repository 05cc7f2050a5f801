import type { Db } from "./client.ts";
import { WalSync } from "./wal-sync.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface PendingWrite<T> {
  write: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Told how each group transaction went (readiness, metrics); optional. */
export interface CommitObserver {
  /** `failedWrites` of the `writes` rolled back alone in their savepoints; `seconds` until durable. */
  committed(writes: number, seconds: number, failedWrites: number): void;
  /** A whole batch, or one write in its savepoint, failed. */
  failed(error: unknown): void;
}

/**
 * Something that keeps state alongside a batch (the receipt log's head): told when each write
 * starts and rolls back, and allowed a last word inside the transaction before COMMIT (the log
 * signs its checkpoint there). Throwing from beforeCommit rolls the whole batch back. afterDurable
 * runs once the committed batch is on disk, before any of its callers hear, in commit order (the
 * log publishes its checkpoint there).
 */
export interface BatchParticipant {
  writeStarted(): void;
  writeRolledBack(): void;
  beforeCommit(): void;
  afterCommit(): void;
  afterDurable?(): void;
  afterRollback(): void;
}

/**
 * Group commit: the writes of every request that reached the commit step during one turn of
 * the event loop go into one transaction, so one fsync (synchronous=FULL) makes all of them
 * durable. Each request still waits for that fsync before it answers; each write runs in its
 * own savepoint, so one failing write rolls back alone and its neighbours still commit.
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
  private readonly batches = { count: 0, writes: 0 };
  // Prepared once: bun:sqlite's transaction() builds four wrapper functions per call, which cost
  // more per write than the savepoint itself.
  private readonly sql;
  private walSync: WalSync | undefined | null = null;
  private syncFailure: unknown = null;

  private readonly participants: BatchParticipant[] = [];

  constructor(
    private readonly db: Db,
    private readonly observer?: CommitObserver,
  ) {
    const prepare = (text: string) => db.$client.prepare(text);
    this.sql = {
      begin: prepare("BEGIN IMMEDIATE"),
      commit: prepare("COMMIT"),
      rollback: prepare("ROLLBACK"),
      savepoint: prepare("SAVEPOINT group_write"),
      release: prepare("RELEASE group_write"),
      rollbackTo: prepare("ROLLBACK TO group_write"),
    };
  }

  join(participant: BatchParticipant): void {
    this.participants.push(participant);
  }

  /** Run `write` inside the next group transaction; settles after that transaction is durable. */
  commit<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve, reject } as PendingWrite<unknown>);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.commitQueued(true));
      }
    });
  }

  /** Commit whatever is queued now, durable (fsynced) before this returns (shutdown, tests). */
  flush(): void {
    this.commitQueued(false);
  }

  /** Flush, and let go of the WAL file (shutdown, before the database closes). */
  close(): void {
    this.flush();
    this.walSync?.close();
    this.walSync = undefined;
  }

  private commitQueued(offLoop: boolean): void {
    this.flushScheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const started = performance.now();
    if (this.syncFailure !== null) {
      this.refuse(batch, this.syncFailure);
      return;
    }
    // Opened at the first batch: the WAL file exists once the database has been written.
    if (this.walSync === null) this.walSync = WalSync.for(this.db.$client);
    const walSync = offLoop ? this.walSync : undefined;
    let outcomes: Outcome[];
    try {
      outcomes = walSync ? walSync.unsynced(() => this.transaction(batch)) : this.transaction(batch);
    } catch (error) {
      this.refuse(batch, error);
      return;
    }
    const durable = () => {
      for (const participant of this.participants) participant.afterDurable?.();
      this.observer?.committed(batch.length, (performance.now() - started) / 1000, outcomes.filter((outcome) => !outcome.ok).length);
      this.batches.count += 1;
      this.batches.writes += batch.length;
      this.settle(batch, outcomes);
    };
    if (!walSync) {
      durable();
      return;
    }
    walSync.durable().then(
      () => (this.syncFailure === null ? durable() : this.refuse(batch, this.syncFailure)),
      (error) => {
        this.syncFailure ??= error;
        this.refuse(batch, error);
      },
    );
  }

  /** BEGIN, every write in its savepoint, the participants' last word, COMMIT; rolled back whole if any of that throws. */
  private transaction(batch: PendingWrite<unknown>[]): Outcome[] {
    const { sql } = this;
    const outcomes: Outcome[] = [];
    sql.begin.run();
    try {
      for (const pending of batch) outcomes.push(this.inSavepoint(pending.write));
      for (const participant of this.participants) participant.beforeCommit();
      sql.commit.run();
    } catch (error) {
      if (this.db.$client.inTransaction) sql.rollback.run();
      for (const participant of this.participants) participant.afterRollback();
      throw error;
    }
    for (const participant of this.participants) participant.afterCommit();
    return outcomes;
  }

  /** Every caller of a batch hears its own write's outcome. */
  private settle(batch: PendingWrite<unknown>[], outcomes: Outcome[]): void {
    batch.forEach((pending, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  /** The whole batch failed (or can no longer be made durable): every caller hears the error. */
  private refuse(batch: PendingWrite<unknown>[], error: unknown): void {
    this.observer?.failed(error);
    for (const pending of batch) pending.reject(error);
  }

  private inSavepoint(write: () => unknown): Outcome {
    const { sql } = this;
    sql.savepoint.run();
    for (const participant of this.participants) participant.writeStarted();
    try {
      const value = write();
      sql.release.run();
      return { ok: true, value };
    } catch (error) {
      // SQLITE_FULL and some I/O errors roll the whole transaction back: the batch fails with this error.
      if (!this.db.$client.inTransaction) throw error;
      sql.rollbackTo.run();
      sql.release.run();
      for (const participant of this.participants) participant.writeRolledBack();
      this.observer?.failed(error);
      return { ok: false, error };
    }
  }

  /** How many transactions and writes so far (read by /metrics and the benchmark). */
  stats(): { batches: number; writes: number } {
    return { batches: this.batches.count, writes: this.batches.writes };
  }
}
