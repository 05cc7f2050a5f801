import { eq } from "drizzle-orm";
import type { Db, Store } from "../db/client.ts";
import { log } from "../ops/log.ts";
import type { Principal } from "./principal.ts";

export type KeyGrant = { revoked: false; principal: Principal } | { revoked: true; principal: Principal };

/**
 * Every key grant, in memory, by digest. Every well-formed key costs the same: one SHA-256 and one
 * Map lookup, whether it exists or not, so timing tells a caller nothing about other keys. The
 * index holds one row per key ever issued (one active per account), so a full reload on any
 * access write stays cheap and can never leave a stale entry behind.
 *
 * One implementation per engine (docs/architecture.md, "The storage seam"): on a SQLite file a
 * reload is synchronous and nothing is ever pending (`fileKeyIndex`); on PostgreSQL it is a query
 * in flight that `pending()` hands out, and authentication waits for it (authenticate.ts), so a
 * revoke or tier change another replica announced is in force for the very next request
 * (`postgresKeyIndex`, docs/postgresql.md).
 */
export interface KeyIndex {
  /** Read every grant again (a key was created, revoked or re-tiered, here or in another process). */
  reload(): void;
  /** The reload in flight, if any: wait for it before trusting lookup(). */
  pending(): Promise<void> | undefined;
  lookup(digest: string): KeyGrant | undefined;
  /** A key's grant by its id (work done later under a key, such as a bid sheet priced in the background). */
  byKeyId(keyId: string): KeyGrant | undefined;
}

/** The SQLite file's index: every reload reads the grants at once, inside the caller's turn. */
export function fileKeyIndex(db: Db): KeyIndex {
  let grants = new Map<string, KeyGrant>();
  const index: KeyIndex = {
    reload() {
      grants = indexed(grantRows(db).all());
    },
    pending: () => undefined,
    lookup: (digest) => grants.get(digest),
    byKeyId: (keyId) => grantOfKey(grants, keyId),
  };
  index.reload();
  return index;
}

/**
 * PostgreSQL's index: a reload is a query in flight; one asked for while another reads runs again
 * after it, since the change may have committed after that read began.
 */
export function postgresKeyIndex(store: Store): KeyIndex {
  let grants = new Map<string, KeyGrant>();
  let inFlight: Promise<void> | undefined;
  let readAgain = false;
  async function readUntilCurrent(): Promise<void> {
    do {
      readAgain = false;
      try {
        grants = indexed(await grantRows(store));
      } catch (error) {
        // The old grants stay; the change watcher's fallback poll asks again once the database answers.
        log.failure("key_index_reload_failed", error);
        return;
      }
    } while (readAgain);
  }
  const index: KeyIndex = {
    reload() {
      if (inFlight) {
        readAgain = true;
        return;
      }
      inFlight = readUntilCurrent().finally(() => {
        inFlight = undefined;
      });
    },
    pending: () => inFlight,
    lookup: (digest) => grants.get(digest),
    byKeyId: (keyId) => grantOfKey(grants, keyId),
  };
  index.reload();
  return index;
}

function grantOfKey(grants: Map<string, KeyGrant>, keyId: string): KeyGrant | undefined {
  for (const grant of grants.values()) if (grant.principal.keyId === keyId) return grant;
  return undefined;
}

function grantRows(store: Store) {
  const { apiKeys, accounts } = store.t;
  return store
    .select({
      digest: apiKeys.digest,
      keyId: apiKeys.id,
      accountId: apiKeys.accountId,
      authObjId: apiKeys.authObjId,
      scopes: apiKeys.scopes,
      revokedAt: apiKeys.revokedAt,
      tier: accounts.tier,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId));
}

function indexed(rows: Awaited<ReturnType<typeof grantRows>>): Map<string, KeyGrant> {
  const grants = new Map<string, KeyGrant>();
  for (const row of rows) {
    const principal: Principal = {
      accountId: row.accountId,
      keyId: row.keyId,
      authObjId: row.authObjId,
      tier: row.tier,
      scopes: row.scopes,
    };
    grants.set(row.digest, { revoked: row.revokedAt !== null, principal });
  }
  return grants;
}
