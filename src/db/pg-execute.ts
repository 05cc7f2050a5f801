import type { SQL } from "drizzle-orm";
import type { Store } from "./client.ts";
import { pgOf } from "./postgres.ts";

/**
 * Run a statement only PostgreSQL has a use for (a data-modifying CTE, a row lock) on a PostgreSQL
 * store or transaction, and hand back its rows (the driver's result is the row list itself).
 */
export async function pgRows<T>(store: Store, query: SQL): Promise<T[]> {
  return [...((await pgOf(store).execute(query)) as Iterable<unknown> as Iterable<T>)];
}
