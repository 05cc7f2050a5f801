import { sql } from "drizzle-orm";
import type { Db, Store } from "./client.ts";
import { engineOf } from "./open.ts";
import { pgAsStore, pgOf } from "./postgres.ts";
import { exclusively } from "./write-lock.ts";

const OPEN = Symbol("open transaction");

/** A handle inside an open SQLite transaction: work given it joins that transaction. */
export function joinedTransaction(db: Db): Store {
  return Object.assign(Object.create(db) as Db, { [OPEN]: true });
}

/**
 * Run `work` in one transaction of whichever engine the store is: all of it commits or none.
 * Called with a handle that is already inside a transaction (a group-commit write, or `work`'s own
 * handle), it joins it on SQLite and nests as a savepoint on PostgreSQL.
 */
export async function inTransaction<T>(store: Store, work: (tx: Store) => Promise<T>): Promise<T> {
  const engine = engineOf(store);
  if (engine.engine === "postgres") {
    // `$client` names the pool the transaction came from, as on the store (markChanged counts per pool).
    return pgOf(store).transaction((tx) => work(pgAsStore(tx, engine.db.$client)));
  }
  if ((store as Store & { [OPEN]?: boolean })[OPEN]) return work(store);
  const db = engine.db;
  return exclusively(db, async () => {
    db.$client.run("BEGIN IMMEDIATE");
    try {
      const value = await work(joinedTransaction(db));
      db.$client.run("COMMIT");
      return value;
    } catch (error) {
      if (db.$client.inTransaction) db.$client.run("ROLLBACK");
      throw error;
    }
  });
}

/** The first row of a query, or undefined: what SQLite's `.get()` gives, on any engine. */
export async function first<T>(rows: PromiseLike<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}

/**
 * Inside a transaction: wait until no other transaction holding the same `lock` is open, as SQLite's
 * BEGIN IMMEDIATE already guarantees for every write transaction there. On PostgreSQL this is a
 * transaction-scoped advisory lock, released by COMMIT or ROLLBACK.
 */
export async function oneWriterAtATime(tx: Store, lock: number): Promise<void> {
  if (tx.engine === "postgres") await pgOf(tx).execute(sql`SELECT pg_advisory_xact_lock(${lock})`);
}
