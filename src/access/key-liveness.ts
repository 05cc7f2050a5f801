import { and, eq, isNull } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first } from "../db/transaction.ts";
import { errors } from "../errors.ts";
import type { Principal } from "./principal.ts";

/** Refuses (REVOKED_API_KEY) a key revoked in the database that this process's key index may not have heard of yet. */
export type ConfirmKeyLive = (principal: Principal) => Promise<void>;

/**
 * For a route that reads nothing else it could fold the check into (docs/postgresql.md, "Revocation
 * on the next request"), on PostgreSQL: one read of the key's row by primary key. Another replica's
 * (or the CLI's) revoke reaches this replica's index by NOTIFY a little after it commits; this read
 * sees it as soon as it has committed.
 */
export function keyRowLiveness(store: Store): ConfirmKeyLive {
  const { apiKeys } = store.t;
  return async (principal) => {
    const live = await first(
      store
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.id, principal.keyId), isNull(apiKeys.revokedAt))),
    );
    if (!live) throw errors.revokedKey();
  };
}

/**
 * On the SQLite file nothing to read: every request looks at PRAGMA data_version first, so the key
 * index already holds whatever another process committed.
 */
export const indexedLiveness: ConfirmKeyLive = async () => {};
