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
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Makes the commits of a WAL database durable off the event loop (docs/operations.md, "Durability").
 *
 * With `synchronous=FULL`, SQLite fsyncs the write-ahead log inside COMMIT, and the whole server
 * waits for the disk. Here a group commit runs with `synchronous=NORMAL` (the log's frames are
 * written, not yet synced: still crash-consistent, SQLite's documented WAL mode) and then this
 * fsyncs the same WAL file on Bun's I/O threads; the batch's callers hear only after that fsync,
 * so an acknowledged answer is exactly as durable as under FULL, while the event loop keeps
 * parsing and pricing the next requests. fsync is per file, so one sync covers every commit
 * written before it started; requests that arrive while one runs share the next.
 */
export class WalSync {
  private running = false;
  private closing = false;
  private waiting: Waiter[] = [];
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

  /** Run `commit` (outside any transaction) with the WAL sync left to `durable()`. */
  unsynced<T>(commit: () => T): T {
    this.relax.run();
    try {
      return commit();
    } finally {
      this.restore.run();
    }
  }

  /** Resolves once everything committed before this call is on disk. */
  durable(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.running) this.start();
    });
  }

  /** Let go of the WAL file once no sync is running (shutdown; the database is being closed). */
  close(): void {
    this.closing = true;
    if (!this.running && this.waiting.length === 0) closeSync(this.fd);
  }

  private start(): void {
    const covered = this.waiting;
    this.waiting = [];
    this.running = true;
    fdatasync(this.fd, (error) => {
      this.running = false;
      for (const waiter of covered) {
        if (error) waiter.reject(new WalSyncError(error));
        else waiter.resolve();
      }
      if (this.waiting.length > 0) this.start();
      else if (this.closing) closeSync(this.fd);
    });
  }
}
