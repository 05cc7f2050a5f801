import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Store } from "./client.ts";

/**
 * Wait for PostgreSQL's transaction-scoped advisory lock `key`, released by the transaction's COMMIT
 * or ROLLBACK: work of every replica under the same key runs one transaction after another. A
 * SQLite file has one writer at a time already (BEGIN IMMEDIATE), so there it is nothing.
 */
export async function lockUntilTransactionEnds(tx: Store, key: number): Promise<void> {
  if (tx.engine !== "postgres") return;
  const pg = tx as unknown as PgDatabase<PgQueryResultHKT, Record<string, unknown>>;
  await pg.execute(sql`SELECT pg_advisory_xact_lock(${key}::bigint)`);
}
