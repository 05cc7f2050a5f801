import { and, eq, isNull } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import type { MaybePromise } from "../db/maybe-async.ts";
import { first } from "../db/transaction.ts";
import { errors } from "../errors.ts";
import type { Principal } from "./principal.ts";

/**
 * Refuse a key revoked in the database even if this process's key index has not heard of it yet
 * (docs/postgresql.md, "Revocation on the next request"), for a route that reads nothing else it
 * could fold the check into.
 *
 * On PostgreSQL: one read of the key's row by primary key. Another replica's (or the CLI's) revoke
 * reaches this replica's index by NOTIFY a little after it commits; this read sees it as soon as it
 * has committed. On a SQLite file nothing: every request looks at PRAGMA data_version first, so the
 * index already holds whatever another process committed.
 */
export function confirmKeyLive(store: Store, principal: Principal): MaybePromise<void> {
  if (store.engine !== "postgres") return;
  const { apiKeys } = store.t;
  return first(
    store
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, principal.keyId), isNull(apiKeys.revokedAt))),
  ).then((live) => {
    if (!live) throw errors.revokedKey();
  });
}
