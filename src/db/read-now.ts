import type { Store } from "./client.ts";
import type { MaybePromise } from "./maybe-async.ts";

/**
 * A select's rows: at once on SQLite, so a cache refreshed inside a request takes no event-loop turn
 * there, and as a promise on PostgreSQL, whose driver has no synchronous reads. The query is written
 * once against the Store; only how its rows are collected differs.
 */
export function rowsNow<T>(store: Store, query: { all(): T[] } & PromiseLike<T[]>): MaybePromise<T[]> {
  return store.engine === "sqlite" ? query.all() : Promise.resolve(query);
}

/**
 * Whether `store` answers reads at once (the SQLite file) rather than by a promise (PostgreSQL): a
 * cache may then drop its copy and read again on first use, inside the caller's turn.
 */
export function readsAtOnce(store: Store): boolean {
  return store.engine === "sqlite";
}
