import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { migrate } from "drizzle-orm/bun-sql/migrator";
import { PG_MIGRATIONS_DIR } from "../paths.ts";
import type { PgHandle, Store } from "./client.ts";
import * as pgSchema from "./pg-schema.ts";
import type * as schema from "./schema.ts";

/** A PostgreSQL store and the pool behind it (closed by whoever opened it). */
export type PostgresStore = Store & { $client: SQL };

/** The PostgreSQL store behind `store` (a pool or a transaction), checked: never a cast from another engine. */
export function postgresStoreOf(store: Store): PostgresStore {
  if (store.engine !== "postgres" || !("$client" in store) || !(store.$client instanceof SQL))
    throw new Error(`expected a PostgreSQL store, got the ${store.engine} one`);
  return store as PostgresStore;
}

/** `store`'s PostgreSQL handle by its own type (a pool or a transaction), for what only PostgreSQL has; checked. */
export function pgOf(store: Store): PgHandle {
  if (store.engine !== "postgres" || !store.pg)
    throw new Error(`expected a PostgreSQL store, got the ${store.engine} one`);
  return store.pg;
}

/**
 * A PostgreSQL pool or transaction as a Store. The one place PostgreSQL's builders are shown under the
 * SQLite-typed Store: both dialects' builders take the same calls (docs/architecture.md, "The storage seam"),
 * so queries are written once; `t` is where they find this dialect's tables and `pg` keeps the handle's own type.
 */
export function pgAsStore(pg: PgHandle, $client: SQL): PostgresStore {
  return Object.assign(pg as unknown as Store, {
    t: pgSchema as unknown as typeof schema,
    engine: "postgres" as const,
    $client,
    pg,
  });
}

/** Any number that names the migration lock: replicas starting together migrate one after another. */
const MIGRATION_LOCK = 0x57a7_b111;

/**
 * Seconds to wait for a new connection (Bun's default is 30): an unreachable server (a partition,
 * a failover in progress) then costs a waiting call 5 s before its 503, not 30 (docs/postgresql.md).
 */
const CONNECT_TIMEOUT_S = 5;

/** Pool size per process unless the URL says otherwise (`?max=N`); docs/postgresql.md has the arithmetic. */
const DEFAULT_POOL = 10;

/** Connect, apply migrations-pg/ under an advisory lock, and hand back the store. */
export async function openPostgres(url: string): Promise<PostgresStore> {
  const client = new SQL({ url, max: poolSizeOf(url), bigint: false, connectionTimeout: CONNECT_TIMEOUT_S });
  try {
    await migrateUnderLock(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  return postgresStore(client);
}

/**
 * A further pool on the same database whose sessions start with `settings` (PostgreSQL runtime
 * parameters), e.g. the meter's, which commits admissions without waiting for the disk
 * (docs/postgresql.md). Same size as the store's pool; closed by whoever asked for it.
 */
export function sidePool(store: PostgresStore, settings: Record<string, string>): PostgresStore {
  const { options } = store.$client;
  return postgresStore(new SQL({ ...options, bigint: false, connection: { ...settings } } as SQL.Options));
}

function postgresStore(client: SQL): PostgresStore {
  return pgAsStore(drizzle({ client, schema: pgSchema }), client);
}

async function migrateUnderLock(client: SQL): Promise<void> {
  const connection = await client.reserve();
  try {
    await connection`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await migrate(drizzle({ client: connection }), { migrationsFolder: PG_MIGRATIONS_DIR });
    } finally {
      await connection`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    }
  } finally {
    connection.release();
  }
}

function poolSizeOf(url: string): number {
  const max = Number(new URL(url).searchParams.get("max"));
  return Number.isInteger(max) && max > 0 ? max : DEFAULT_POOL;
}
