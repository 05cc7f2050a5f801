import type { Db } from "./client.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface PendingWrite<T> {
  write: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Told how each group transaction went (readiness, metrics); optional. */
export interface CommitObserver {
  /** `failedWrites` of the `writes` rolled back alone in their savepoints. */
  committed(writes: number, seconds: number, failedWrites: number): void;
  /** A whole batch, or one write in its savepoint, failed. */
  failed(error: unknown): void;
}

/**
 * Group commit: the writes of every request that reached the commit step during one turn of
 * the event loop go into one transaction, so one fsync (synchronous=FULL) makes all of them
 * durable. Each request still waits for that commit before it answers; each write runs in its
 * own savepoint, so one failing write rolls back alone and its neighbours still commit.
 * Under light load a batch holds one write and this is an ordinary transaction.
 */
export class GroupCommitter {
  private queue: PendingWrite<unknown>[] = [];
  private flushScheduled = false;
  private readonly batches = { count: 0, writes: 0 };
  // Prepared once: bun:sqlite's transaction() builds four wrapper functions per call, which cost
  // more per write than the savepoint itself.
  private readonly sql;

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

  /** Run `write` inside the next group transaction; settles after that transaction is durable. */
  commit<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve, reject } as PendingWrite<unknown>);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commit whatever is queued now (shutdown, tests). */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const { sql } = this;
    const outcomes: Outcome[] = [];
    const started = performance.now();
    try {
      sql.begin.run();
      try {
        for (const pending of batch) outcomes.push(this.inSavepoint(pending.write));
        sql.commit.run();
      } catch (error) {
        if (this.db.$client.inTransaction) sql.rollback.run();
        throw error;
      }
    } catch (error) {
      this.observer?.failed(error);
      for (const pending of batch) pending.reject(error);
      return;
    }
    this.observer?.committed(batch.length, (performance.now() - started) / 1000, outcomes.filter((outcome) => !outcome.ok).length);
    this.batches.count += 1;
    this.batches.writes += batch.length;
    batch.forEach((pending, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  private inSavepoint(write: () => unknown): Outcome {
    const { sql } = this;
    sql.savepoint.run();
    try {
      const value = write();
      sql.release.run();
      return { ok: true, value };
    } catch (error) {
      // SQLITE_FULL and some I/O errors roll the whole transaction back: the batch fails with this error.
      if (!this.db.$client.inTransaction) throw error;
      sql.rollbackTo.run();
      sql.release.run();
      this.observer?.failed(error);
      return { ok: false, error };
    }
  }

  /** How many transactions and writes so far (read by /metrics and the benchmark). */
  stats(): { batches: number; writes: number } {
    return { batches: this.batches.count, writes: this.batches.writes };
  }
}
