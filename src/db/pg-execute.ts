import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Store } from "./client.ts";

/**
 * Run a statement only PostgreSQL has a use for (a data-modifying CTE, a row lock) on a PostgreSQL
 * store or transaction, and hand back its rows. The Store is typed by the SQLite dialect
 * (client.ts), so this is where the PostgreSQL handle's own `execute` is reached.
 */
export async function pgRows<T>(store: Store, query: SQL): Promise<T[]> {
  if (store.engine !== "postgres") throw new Error("pgRows: not a PostgreSQL store");
  const pg = store as unknown as PgDatabase<PgQueryResultHKT, Record<string, unknown>>;
  return [...((await pg.execute(query)) as unknown as Iterable<T>)];
}
