import type { Database } from "bun:sqlite";
import { closeSync, existsSync, fdatasync, openSync } from "node:fs";

/** SQLite's `PRAGMA synchronous` levels at and above which a WAL commit is fsynced before it returns. */
const FULL = 2;

/** An fsync that failed: reported with the code SQLite gives a failed fsync of its own (docs/operations.md). */
export class WalSyncError extends Error {
  readonly code = "SQLITE_IOERR_FSYNC";
  constructor(cause: unknown) {
    super(`fsync of the write-ahead log failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

interface Waiter {
  /** Commits up to this one (numbered by durable() calls) are covered by any fsync started after it. */
  seq: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** fsyncs of the WAL running at once; a commit never waits for a sync that started before it to end first. */
const MAX_SYNCS_IN_FLIGHT = 4;

/**
 * Makes the commits of a WAL database durable off the event loop (docs/operations.md, "Durability").
 *
 * With `synchronous=FULL`, SQLite fsyncs the write-ahead log inside COMMIT, and the whole server
 * waits for the disk. Here a group commit runs with `synchronous=NORMAL` (the log's frames are
 * written, not yet synced: still crash-consistent, SQLite's documented WAL mode) and then this
 * fsyncs the same WAL file on Bun's I/O threads; the batch's callers hear only after that fsync,
 * so an acknowledged answer is exactly as durable as under FULL, while the event loop keeps
 * parsing and pricing the next requests.
 *
 * fsync is per file: a sync covers every commit written before it started. Each durable() starts
 * its own sync at once (up to MAX_SYNCS_IN_FLIGHT; past that, commits share the next one), rather
 * than waiting for the running sync to end and then for another: that wait was up to two fsyncs
 * per commit. Whichever sync ends first settles every commit it covers, always oldest first, so
 * batches are still announced in commit order (docs/performance.md).
 */
export class WalSync {
  private inFlight = 0;
  private closing = false;
  private requested = 0;
  /** Waiters oldest first (seq ascending). */
  private waiting: Waiter[] = [];
  /** The newest seq a sync has been started for: later durable() calls need a sync of their own. */
  private startedFor = 0;
  /** Once a sync has failed, nothing written since can be trusted to reach the disk: every later caller hears it. */
  private failure: WalSyncError | null = null;
  private readonly relax;
  private readonly restore;

  private constructor(
    sqlite: Database,
    private readonly fd: number,
    level: number,
  ) {
    this.relax = sqlite.prepare("PRAGMA synchronous = NORMAL");
    this.restore = sqlite.prepare(`PRAGMA synchronous = ${level}`);
  }

  /** For a file database in WAL mode whose commits are synced (FULL or EXTRA); otherwise nothing to take off the loop. */
  static for(sqlite: Database): WalSync | undefined {
    const mode = sqlite.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()?.journal_mode;
    const level = sqlite.query<{ synchronous: number }, []>("PRAGMA synchronous").get()?.synchronous ?? 0;
    const wal = `${sqlite.filename}-wal`;
    if (mode !== "wal" || level < FULL || !sqlite.filename || !existsSync(wal)) return undefined;
    // The WAL file lives as long as a connection is open (this one): SQLite deletes it only at the last close.
    return new WalSync(sqlite, openSync(wal, "r"), level);
  }

  /**
   * Run `commit` (outside any transaction, holding the connection's write lock) with the WAL sync
   * left to `durable()`; the setting is restored once it settles.
   */
  async unsynced<T>(commit: () => Promise<T>): Promise<T> {
    this.relax.run();
    try {
      return await commit();
    } finally {
      this.restore.run();
    }
  }

  /** Resolves once everything committed before this call is on disk. */
  durable(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.requested += 1;
      this.waiting.push({ seq: this.requested, resolve, reject });
      if (this.inFlight < MAX_SYNCS_IN_FLIGHT) this.start();
    });
  }

  /** Let go of the WAL file once no sync is running (shutdown; the database is being closed). */
  close(): void {
    this.closing = true;
    if (this.inFlight === 0 && this.waiting.length === 0) closeSync(this.fd);
  }

  private start(): void {
    const covers = this.requested;
    this.startedFor = covers;
    this.inFlight += 1;
    fdatasync(this.fd, (error) => {
      this.inFlight -= 1;
      if (error) this.failure ??= new WalSyncError(error);
      // After a failure every waiter hears it, also those a sync still running would have covered.
      this.settleUpTo(this.failure ? Number.POSITIVE_INFINITY : covers);
      // Commits that arrived while every slot was busy: one sync for all of them.
      if (!this.failure && this.requested > this.startedFor && this.inFlight < MAX_SYNCS_IN_FLIGHT) this.start();
      else if (this.closing && this.inFlight === 0 && this.waiting.length === 0) closeSync(this.fd);
    });
  }

  private settleUpTo(seq: number): void {
    const firstLater = this.waiting.findIndex((waiter) => waiter.seq > seq);
    const settled = firstLater === -1 ? this.waiting.length : firstLater;
    for (const waiter of this.waiting.splice(0, settled)) {
      if (this.failure) waiter.reject(this.failure);
      else waiter.resolve();
    }
  }
}
