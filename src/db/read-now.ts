import type { Store } from "./client.ts";

/**
 * Whether `store` answers reads at once (the SQLite file) rather than by a promise (PostgreSQL,
 * whose driver has no synchronous reads): a cache may then drop its copy and read again on first
 * use, inside the caller's turn, and never serve old rows meanwhile.
 */
export function readsAtOnce(store: Store): boolean {
  return store.engine === "sqlite";
}
