import { desc } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import { isDatabaseUnreachable } from "../errors.ts";
import type { Db, Store } from "../db/client.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { exclusively } from "../db/write-lock.ts";

export type Readiness = { ok: true } | { ok: false; reason: string };

/** How long a probe may wait for another process's write lock before it counts as "cannot write". */
const PROBE_BUSY_TIMEOUT_MS = 250;
/** The connection's normal busy timeout (db/client.ts PRAGMAS). */
const NORMAL_BUSY_TIMEOUT_MS = 5000;
/** Probes closer together than this share one result, so a flood of /readyz costs one fsync a second. */
const PROBE_CACHE_MS = 1000;
/** A failed answer commit keeps the instance unready this long unless a later commit succeeds. */
const COMMIT_FAILURE_MS = 60_000;

/** PostgreSQL's SQLSTATE classes (docs/postgresql.md) → what an operator should read. */
const POSTGRES_STATES: [RegExp, string][] = [
  [/^53/, "the database server is out of resources (disk, memory or connections)"],
  [/^25006$/, "the database is read-only (a standby, or default_transaction_read_only)"],
  [/^57P0[1-3]$|^08/, "the database server is shutting down or unreachable"],
];

/** Whether an error came from the database (rather than from a write's own logic). */
export function isDatabaseFailure(error: unknown): boolean {
  const code = String((error as { code?: string })?.code ?? "");
  return code.startsWith("SQLITE") || code.startsWith("ERR_POSTGRES") || code === "ECONNREFUSED";
}

/** SQLite's result code, or PostgreSQL's SQLSTATE → what an operator should read. */
export function describeWriteFailure(error: unknown): string {
  const state = String((error as { errno?: unknown }).errno ?? "");
  for (const [pattern, meaning] of POSTGRES_STATES) if (pattern.test(state)) return meaning;
  const code = String((error as { code?: string }).code ?? "");
  if (isDatabaseUnreachable(error)) return `the database server is unreachable (${code || "connection lost"})`;
  if (code.startsWith("SQLITE_FULL")) return "disk full: the database cannot grow";
  if (code.startsWith("SQLITE_READONLY")) return "the database file or its folder is read-only";
  if (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB")) return "the database file is corrupted";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return "another process holds the database's write lock";
  if (code.startsWith("SQLITE_IOERR")) return `disk I/O error (${code})`;
  return code ? `write failed (${code})` : `write failed: ${(error as Error)?.message ?? String(error)}`;
}

/**
 * A real write, committed (and so fsynced) like an answer's: a row in `settings` rewritten, with a
 * short busy timeout, plus a read of the receipt chain's head (the pages every answer appends
 * beside). It fails the way answers would fail: on a full disk, a read-only file, a corrupted page
 * on the way. A failed real commit (reported by the group committer) counts too for a minute
 * unless a later one succeeds, since the probe's own row can sit on a healthy page. The probe is
 * the engine's (chosen in runtime.ts): sqliteProbe on the SQLite file, whose transaction runs
 * inside one call (nothing else can run on the connection meanwhile); storeProbe, the same write
 * and read in one transaction over the pool, on PostgreSQL.
 */
export function createReadiness(probe: WriteProbe, clock: Clock = { now: () => Date.now() }) {
  let cached: { at: number; result: Promise<Readiness> } | undefined;
  let commitFailure: { reason: string; at: number } | undefined;

  return {
    async check(now: number = clock.now()): Promise<Readiness> {
      if (!cached || now - cached.at >= PROBE_CACHE_MS || now < cached.at) cached = { at: now, result: probe(now) };
      const result = await cached.result;
      if (!result.ok) return result;
      if (commitFailure && now - commitFailure.at < COMMIT_FAILURE_MS) {
        return { ok: false, reason: `the last answer could not be committed: ${commitFailure.reason}` };
      }
      return result;
    },
    /** From the group committer: how the latest real transaction ended. */
    commitSucceeded(): void {
      commitFailure = undefined;
    },
    commitFailed(error: unknown, now: number = clock.now()): void {
      if (!isDatabaseFailure(error)) return; // not the database's fault
      commitFailure = { reason: describeWriteFailure(error), at: now };
    },
  };
}

/** One real write and read at `now`: how it went. */
export type WriteProbe = (now: number) => Promise<Readiness>;

export function sqliteProbe(db: Db): WriteProbe {
  const sqlite = db.$client;
  const write = sqlite.prepare(
    "INSERT INTO settings (key, value) VALUES ('readiness_probe', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const chainHead = sqlite.prepare("SELECT seq, length(body) FROM receipts ORDER BY seq DESC LIMIT 1");
  // In turn with the connection's other transactions (a group-commit batch awaits between its
  // writes: BEGIN here would fail inside it, and ROLLBACK would undo it); no await inside.
  return (now) => exclusively(db, async () => probeNow(now));
  function probeNow(now: number): Readiness {
    sqlite.run(`PRAGMA busy_timeout = ${PROBE_BUSY_TIMEOUT_MS}`);
    try {
      sqlite.run("BEGIN IMMEDIATE");
      write.run(new Date(now).toISOString());
      chainHead.get();
      sqlite.run("COMMIT");
      return { ok: true };
    } catch (error) {
      if (sqlite.inTransaction) sqlite.run("ROLLBACK");
      return { ok: false, reason: describeWriteFailure(error) };
    } finally {
      sqlite.run(`PRAGMA busy_timeout = ${NORMAL_BUSY_TIMEOUT_MS}`);
    }
  }
}

export function storeProbe(db: Store): WriteProbe {
  return async (now) => {
    try {
      await inTransaction(db, async (tx) => {
        const { settings, receipts } = tx.t;
        const value = new Date(now).toISOString();
        await tx
          .insert(settings)
          .values({ key: "readiness_probe", value })
          .onConflictDoUpdate({ target: settings.key, set: { value } });
        await first(tx.select({ seq: receipts.seq }).from(receipts).orderBy(desc(receipts.seq)).limit(1));
      });
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: describeWriteFailure(error) };
    }
  };
}

export type ReadinessProbe = ReturnType<typeof createReadiness>;
