import { eq } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { andThen, type MaybePromise } from "../db/maybe-async.ts";
import { log } from "../ops/log.ts";
import type { Principal } from "./principal.ts";

export type KeyGrant = { revoked: false; principal: Principal } | { revoked: true; principal: Principal };

/**
 * Every key grant, in memory, by digest. Every well-formed key costs the same: one SHA-256 and one
 * Map lookup, whether it exists or not, so timing tells a caller nothing about other keys. The
 * index holds one row per key ever issued (one active per account), so a full reload on any
 * access write stays cheap and can never leave a stale entry behind.
 *
 * On a SQLite file a reload is synchronous. On PostgreSQL it is a query in flight: `settled()`
 * hands it out, and authentication waits for it (authenticate.ts), so a revoke or tier change
 * another replica announced is in force for the very next request (docs/postgresql.md).
 */
export class KeyIndex {
  private grants = new Map<string, KeyGrant>();
  private pending: Promise<void> | undefined;
  /** A reload was asked for while one was reading: the change may have committed after its read began. */
  private readAgain = false;

  constructor(private readonly store: Store) {
    void this.reload();
  }

  reload(): MaybePromise<void> {
    if (this.store.engine === "sqlite") {
      this.grants = indexed(grantRows(this.store).all());
      return;
    }
    if (this.pending) {
      this.readAgain = true;
      return this.pending;
    }
    this.pending = this.readUntilCurrent().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The reload in flight, if any: wait for it before trusting lookup(). */
  settled(): MaybePromise<void> {
    return this.pending;
  }

  lookup(digest: string): KeyGrant | undefined {
    return this.grants.get(digest);
  }

  /** A key's grant by its id (work done later under a key, such as a bid sheet priced in the background). */
  byKeyId(keyId: string): KeyGrant | undefined {
    for (const grant of this.grants.values()) if (grant.principal.keyId === keyId) return grant;
    return undefined;
  }

  private async readUntilCurrent(): Promise<void> {
    do {
      this.readAgain = false;
      try {
        this.grants = indexed(await grantRows(this.store));
      } catch (error) {
        // The old grants stay; the change watcher's fallback poll asks again once the database answers.
        log.failure("key_index_reload_failed", error);
        return;
      }
    } while (this.readAgain);
  }
}

/** Wait for a reload in flight (PostgreSQL), then run `work`: synchronous when nothing is pending. */
export function whenSettled<T>(index: KeyIndex, work: () => T): MaybePromise<T> {
  return andThen(index.settled(), work);
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
