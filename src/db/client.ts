import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { MIGRATIONS_DIR } from "../paths.ts";
import * as schema from "./schema.ts";
import { RESTART_FRAMES } from "./wal-checkpointer.ts";

/**
 * A database handle any dialect can stand behind (docs/postgresql.md): drizzle's query builders,
 * awaited (never `.get()/.all()/.run()`, which only SQLite has), over the tables in `t`, which are
 * that dialect's tables under the names of src/db/schema.ts. The builders are typed by the SQLite
 * dialect; src/db/postgres.ts hands out PostgreSQL's behind the same type.
 */
export type Store = BunSQLiteDatabase<typeof schema> & {
  t: typeof schema;
  engine: Engine;
  /** On PostgreSQL, the same handle typed as what it is, for what only PostgreSQL has (src/db/postgres.ts, pgOf). */
  pg?: PgHandle;
};
export type Engine = "sqlite" | "postgres";

/** drizzle's PostgreSQL pool or transaction, by its own dialect's type. */
export type PgHandle = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** An embedded SQLite file: a Store that also reaches bun:sqlite directly (prepared statements, pragmas). */
export type Db = Store & { $client: Database };

/**
 * Pragmas, and why:
 * - WAL: readers never block the writer, and a commit is one append instead of a journal rewrite.
 * - synchronous=FULL: every acknowledged answer's usage count and receipt survive power loss, not only
 *   a process crash. NORMAL would lose the last commits on power loss, which would let a paid call
 *   vanish from the month and break the receipt chain's promise. The throughput cost is paid back by
 *   committing many requests per transaction (db/group-commit.ts), not by weakening durability.
 * - wal_autocheckpoint: ordinary writes checkpoint inline past RESTART_FRAMES (4,000 pages; SQLite's
 *   default is 1,000); group-commit batches turn it off and a worker thread checkpoints instead,
 *   restarting the WAL at the same size (db/wal-checkpointer.ts, docs/performance.md).
 * - journal_size_limit: when the WAL starts over, SQLite truncates the file back to this size (a little
 *   over the 4,000 pages at which group commit starts it over, db/wal-checkpointer.ts), so a burst that
 *   once grew it does not leave a larger file behind for good: the WAL stays flat over a long run
 *   (docs/operations.md).
 * - foreign_keys: the schema's references are real constraints.
 * - busy_timeout: a CLI command (keys revoke, backup) may touch the file while the server runs.
 */
/** Just above RESTART_FRAMES pages of 4 KiB with their 24-byte frame headers. */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;
export const PRAGMAS = [
  "journal_mode = WAL",
  "synchronous = FULL",
  `wal_autocheckpoint = ${RESTART_FRAMES}`,
  `journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`,
  "foreign_keys = ON",
  "busy_timeout = 5000",
] as const;

export function openDatabase(file: string): Db {
  const sqlite = new Database(file, { create: true, strict: true });
  for (const pragma of PRAGMAS) sqlite.run(`PRAGMA ${pragma}`);
  const db = Object.assign(drizzle({ client: sqlite, schema }), { t: schema, engine: "sqlite" as const });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return db;
}

/** A fresh, migrated in-memory database for tests. */
export function openMemoryDatabase(): Db {
  return openDatabase(":memory:");
}
