import { and, desc, eq, isNull } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { announceChange, markChanged } from "../db/changes.ts";
import type { apiKeys } from "../db/schema.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { appendEvent, type NewEvent } from "../events/log.ts";
import { newId } from "../ids.ts";
import { AccessError } from "./accounts.ts";
import { digestApiKey, displayIdOf, generateApiKey } from "./api-key.ts";
import { CATALOG, type Scope, type SkillCatalog } from "../skills/catalog.ts";

export type KeyRecord = typeof apiKeys.$inferSelect;

export interface IssuedKey {
  /** The full key: shown to its holder once, never stored. */
  key: string;
  record: KeyRecord;
  /** The key this one replaced, if the account had an active one. */
  revokedKeyId: string | null;
}

/** Accept a list of scope names; refuse unknown ones with the full list. Empty means unscoped. */
export function parseScopes(
  names: readonly string[] | null | undefined,
  catalog: SkillCatalog = CATALOG,
): Scope[] | null {
  if (!names || names.length === 0) return null;
  const unknown = names.filter((name) => !catalog.isScope(name));
  if (unknown.length > 0) {
    throw new AccessError(
      `Unknown scope ${unknown.map((n) => `'${n}'`).join(", ")}; valid scopes: ${catalog.scopes.join(", ")}.`,
    );
  }
  return [...new Set(names as Scope[])];
}

/** What the account's event log says about a key: never the key or its digest. */
function keyEvent(type: "key.created" | "key.revoked", key: KeyRecord, at: number): NewEvent {
  return {
    accountId: key.accountId,
    type,
    payload: { key_id: key.id, display_id: key.displayId, scopes: key.scopes },
    at,
  };
}

/** Issue a new key for an account; the previous active key is revoked in the same transaction. */
export async function issueKey(db: Store, accountId: string, scopes: Scope[] | null, now: number): Promise<IssuedKey> {
  const key = generateApiKey();
  const { apiKeys } = db.t;
  const issued = await inTransaction(db, async (tx) => {
    const { accounts } = tx.t;
    const owner = await first(
      tx.select({ disabledAt: accounts.disabledAt }).from(accounts).where(eq(accounts.id, accountId)),
    );
    if (owner?.disabledAt != null) throw new AccessError("The account is disabled; an admin must enable it first.");
    const previous = await revokeInTransaction(tx, accountId, now);
    const [record] = await tx
      .insert(apiKeys)
      .values({
        id: newId("key", now),
        accountId,
        digest: digestApiKey(key),
        displayId: displayIdOf(key),
        authObjId: newId("auth_obj", now),
        scopes,
        createdAt: now,
      })
      .returning();
    if (!record) throw new Error("INSERT … RETURNING gave no row for the new API key");
    await appendEvent(tx, keyEvent("key.created", record, now));
    await announceChange(tx); // every replica's key index (docs/postgresql.md)
    return { key, record, revokedKeyId: previous?.id ?? null };
  });
  markChanged(db);
  return issued;
}

/** Revoke the account's active key; returns it, or undefined when there was none. */
export async function revokeActiveKey(db: Store, accountId: string, now: number): Promise<KeyRecord | undefined> {
  const revoked = await inTransaction(db, (tx) => revokeInTransaction(tx, accountId, now));
  markChanged(db);
  return revoked;
}

/** Revoke the active key, if any, and log it, inside the caller's transaction. */
export async function revokeInTransaction(tx: Store, accountId: string, now: number): Promise<KeyRecord | undefined> {
  const { apiKeys } = tx.t;
  const key = await first(
    tx
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
      .returning(),
  );
  if (key) {
    await appendEvent(tx, keyEvent("key.revoked", key, now));
    await announceChange(tx); // refused by every replica from its next request on (docs/postgresql.md)
  }
  return key;
}

export function activeKeyOf(db: Store, accountId: string): Promise<KeyRecord | undefined> {
  const { apiKeys } = db.t;
  return first(
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt))),
  );
}

export function keysOf(db: Store, accountId: string): Promise<KeyRecord[]> {
  const { apiKeys } = db.t;
  return db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt));
}
