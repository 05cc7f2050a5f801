import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import type { Store } from "./client.ts";

/** The distinct values of a column in a group, comma-separated: group_concat on SQLite, string_agg on PostgreSQL. */
export function distinctList(store: Store, column: AnyColumn): SQL<string> {
  return store.engine === "postgres"
    ? sql<string>`string_agg(distinct ${column}, ',')`
    : sql<string>`group_concat(distinct ${column})`;
}
