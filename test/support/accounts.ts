import { createAccount, hashPassword, type Account } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import type { Principal } from "../../src/access/principal.ts";
import type { Tier } from "../../src/access/tiers.ts";
import type { Db, Store } from "../../src/db/client.ts";
import type { Scope } from "../../src/skills/catalog.ts";

/**
 * Accounts and keys for tests, in two strengths: `accountWithKey` goes through the product's own
 * code (a real key that authenticates over HTTP); `seedPrincipal` inserts rows with plain SQL for
 * tests below HTTP that only need the foreign keys (receipts, metering) and a Principal.
 */

let sequence = 0;
const next = () => String(++sequence).padStart(4, "0");

export const PASSWORD = "correct horse battery";

/** A new account on the tier with a fresh key; returns the full key and its grant. */
export async function accountWithKey(db: Store, now: number, tier: Tier, scopes: Scope[] | null = null) {
  const email = `user${next()}@example.com`;
  const account = await createAccount(db, { email, tier }, now);
  const issued = await issueKey(db, account.id, scopes, now);
  return { key: issued.key, accountId: account.id, authObjId: issued.record.authObjId, email };
}

/** An account that can sign in to the dashboard with PASSWORD. */
export async function accountWithPassword(
  db: Store,
  email: string,
  tier: Tier = "explorer",
  isAdmin = false,
): Promise<Account> {
  return createAccount(
    db,
    { email, tier, isAdmin, passwordHash: await hashPassword(PASSWORD) },
    Date.parse("2026-10-01T00:00:00Z"),
  );
}

/** An account row and an active key row, inserted with plain SQL. */
export function seedPrincipal(db: Db, options: { tier?: Tier; scopes?: Scope[] | null } = {}): Principal {
  const n = next();
  const accountId = `acct_test${n}`;
  const tier = options.tier ?? "professional";
  db.$client.run("INSERT INTO accounts (id, email, tier, is_admin, created_at) VALUES (?, ?, ?, 0, 0)", [
    accountId,
    `user${n}@example.test`,
    tier,
  ]);
  return { ...seedKey(db, accountId, options.scopes ?? null), tier };
}

/** Revoke the principal's key and insert another, as key rotation does. */
export function rotateKey(db: Db, principal: Principal): Principal {
  db.$client.run("UPDATE api_keys SET revoked_at = 1 WHERE id = ?", [principal.keyId]);
  return { ...seedKey(db, principal.accountId, principal.scopes), tier: principal.tier };
}

function seedKey(db: Db, accountId: string, scopes: readonly string[] | null): Omit<Principal, "tier"> {
  const n = next();
  const key = { accountId, keyId: `key_test${n}`, authObjId: `auth_obj_test${n}`, scopes };
  db.$client.run(
    "INSERT INTO api_keys (id, account_id, digest, display_id, auth_obj_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, 0)",
    [key.keyId, accountId, `digest${n}`, `wbk_0000${n}…`, key.authObjId, scopes ? JSON.stringify(scopes) : null],
  );
  return key;
}
