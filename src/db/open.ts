import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { openDatabase, type Db, type Store } from "./client.ts";
import { describeLocation, type DatabaseLocation } from "./location.ts";
import { openPostgres, postgresStoreOf, type PostgresStore } from "./postgres.ts";

/** The database's folder must exist: a mistyped path is an error, not a new empty database somewhere. */
export function requireDatabaseFolder(file: string): string {
  const path = resolve(file);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new ConfigError(`cannot open database ${path}: the folder ${folder} does not exist.`);
  }
  return path;
}

/** Open (creating and migrating) the database file, or explain in one line why it cannot be. */
export function openDatabaseFile(file: string): Db {
  const path = requireDatabaseFolder(file);
  try {
    return openDatabase(path);
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0];
    throw new ConfigError(`cannot open database ${path}: ${reason}.`);
  }
}

/** Open (and migrate) whichever database the location names. */
export async function openStore(location: DatabaseLocation): Promise<OpenStore> {
  if (location.dialect === "sqlite") {
    const db = openDatabaseFile(location.file);
    return { store: db, sqlite: db, close: async () => db.$client.close() };
  }
  let store: PostgresStore;
  try {
    store = await openPostgres(location.url);
  } catch (error) {
    throw new ConfigError(
      `cannot open database ${describeLocation(location)}: ${(error as Error).message.split("\n")[0]}.`,
    );
  }
  return { store, sqlite: null, close: () => store.$client.close() };
}

/** A store as what it is: the SQLite file or PostgreSQL. The composition root picks each engine's parts from it. */
export type EngineStore = { engine: "sqlite"; db: Db } | { engine: "postgres"; db: PostgresStore };

/** Which engine stands behind `store`, checked (not cast): the one place that tells them apart for runtime.ts. */
export function engineOf(store: Store): EngineStore {
  if (store.engine === "postgres") return { engine: "postgres", db: postgresStoreOf(store) };
  if (!("$client" in store) || !(store.$client instanceof Database))
    throw new Error("expected the SQLite file's store, got one without its bun:sqlite handle");
  return { engine: "sqlite", db: store as Db };
}

/** An opened database: the portable store, the SQLite handle when it is a file, and how to let go of it. */
export interface OpenStore {
  store: Store;
  /** Only for the few things that exist on SQLite alone (VACUUM INTO backups, WAL checkpoints). */
  sqlite: Db | null;
  close(): Promise<void>;
}

/** How many migrations the database has applied (0 when it is new or does not exist yet). */
export async function appliedMigrations(location: DatabaseLocation): Promise<number> {
  if (location.dialect === "sqlite") {
    if (!existsSync(location.file)) return 0;
    const sqlite = new Database(location.file, { readonly: true });
    try {
      const table = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = '__drizzle_migrations'").get();
      return table
        ? (sqlite.prepare<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations").get()?.n ?? 0)
        : 0;
    } finally {
      sqlite.close();
    }
  }
  const client = new SQL({ url: location.url, max: 1 });
  try {
    const [row] = await client`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`;
    if (!row.present) return 0;
    const [count] = await client`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    return count.n as number;
  } catch (error) {
    throw new ConfigError(
      `cannot open database ${describeLocation(location)}: ${(error as Error).message.split("\n")[0]}.`,
    );
  } finally {
    await client.close();
  }
}
