import { sql } from "drizzle-orm";
import type { Store } from "./client.ts";
import { pgOf } from "./postgres.ts";

/**
 * Wait for PostgreSQL's transaction-scoped advisory lock `key`, released by the transaction's COMMIT
 * or ROLLBACK: work of every replica under the same key runs one transaction after another. A
 * SQLite file has one writer at a time already (BEGIN IMMEDIATE), so there it is nothing.
 */
export async function lockUntilTransactionEnds(tx: Store, key: number): Promise<void> {
  if (tx.engine !== "postgres") return;
  await pgOf(tx).execute(sql`SELECT pg_advisory_xact_lock(${key}::bigint)`);
}

/**
 * Run `work` only if no other replica is running work under `key` right now; undefined when one is.
 * On PostgreSQL a transaction holds `pg_try_advisory_xact_lock(key)` for as long as `work` runs (it
 * writes nothing itself; `work` uses its own transactions on `store`). One SQLite file has one server
 * (the instance lock), so there `work` simply runs.
 */
export async function unlessAnotherReplicaIs<T>(
  store: Store,
  key: number,
  work: () => Promise<T>,
): Promise<T | undefined> {
  if (store.engine !== "postgres") return work();
  return pgOf(store).transaction(async (tx) => {
    const rows = (await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${key}::bigint) AS held`)) as unknown as {
      held: boolean;
    }[];
    const held = (Array.isArray(rows) ? rows : ((rows as { rows?: { held: boolean }[] }).rows ?? []))[0]?.held;
    return held ? work() : undefined;
  });
}
