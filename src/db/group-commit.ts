import type { Db } from "./client.ts";

interface PendingWrite<T> {
  write: () => T;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
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

  constructor(private readonly db: Db) {}

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
    const sqlite = this.db.$client;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      sqlite
        .transaction(() => {
          for (const pending of batch) {
            try {
              outcomes.push({ ok: true, value: sqlite.transaction(pending.write)() }); // nested: a savepoint
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    this.batches.count += 1;
    this.batches.writes += batch.length;
    batch.forEach((pending, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  /** How many transactions and writes so far (for /metrics and the benchmark). */
  stats(): { batches: number; writes: number } {
    return { batches: this.batches.count, writes: this.batches.writes };
  }
}
