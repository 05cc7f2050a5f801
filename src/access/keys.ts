import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { markChanged } from "../db/changes.ts";
import { apiKeys } from "../db/schema.ts";
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
export function parseScopes(names: readonly string[] | null | undefined, catalog: SkillCatalog = CATALOG): Scope[] | null {
  if (!names || names.length === 0) return null;
  const unknown = names.filter((name) => !catalog.isScope(name));
  if (unknown.length > 0) {
    throw new AccessError(`Unknown scope ${unknown.map((n) => `'${n}'`).join(", ")}; valid scopes: ${catalog.scopes.join(", ")}.`);
  }
  return [...new Set(names as Scope[])];
}

/** Issue a new key for an account; the previous active key is revoked in the same transaction. */
export function issueKey(db: Db, accountId: string, scopes: Scope[] | null, now: number): IssuedKey {
  const key = generateApiKey();
  const issued = db.transaction(
    (tx) => {
      const previous = tx
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id })
        .get();
      const record = tx
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
        .returning()
        .get();
      return { key, record, revokedKeyId: previous?.id ?? null };
    },
    { behavior: "immediate" },
  );
  markChanged(db);
  return issued;
}

/** Revoke the account's active key; returns it, or undefined when there was none. */
export function revokeActiveKey(db: Db, accountId: string, now: number): KeyRecord | undefined {
  const revoked = db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning()
    .get();
  markChanged(db);
  return revoked;
}

export function activeKeyOf(db: Db, accountId: string): KeyRecord | undefined {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .get();
}

export function keysOf(db: Db, accountId: string): KeyRecord[] {
  return db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt)).all();
}
