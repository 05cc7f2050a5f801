import type { Principal } from "../../src/access/principal.ts";
import type { Tier } from "../../src/access/tiers.ts";
import type { Db } from "../../src/db/client.ts";

let sequence = 0;

/** An account row and an active key row (plain SQL: the metering tables reference both). */
export function seedAccount(db: Db, tier: Tier = "explorer"): Principal {
  const n = ++sequence;
  const accountId = `acct_test${n}`;
  db.$client.run("INSERT INTO accounts (id, email, tier, created_at) VALUES (?, ?, ?, 0)", [accountId, `meter${n}@example.com`, tier]);
  return { ...newKey(db, accountId), tier };
}

/** Revoke the account's key and issue another, as key rotation does. */
export function rotateKey(db: Db, principal: Principal): Principal {
  db.$client.run("UPDATE api_keys SET revoked_at = 1 WHERE id = ?", [principal.keyId]);
  return { ...newKey(db, principal.accountId), tier: principal.tier };
}

function newKey(db: Db, accountId: string): Omit<Principal, "tier"> {
  const n = ++sequence;
  const keyId = `key_test${n}`;
  const authObjId = `auth_obj_test${n}`;
  db.$client.run(
    "INSERT INTO api_keys (id, account_id, digest, display_id, auth_obj_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, NULL, 0)",
    [keyId, accountId, `digest${n}`, `wbk_${String(n).padStart(8, "0")}…`, authObjId],
  );
  return { accountId, keyId, authObjId, scopes: null };
}

export function answeredInDb(db: Db, accountId: string, month: string): number {
  return (
    db.$client.query<{ answered: number }, [string, string]>("SELECT answered FROM monthly_usage WHERE account_id = ? AND month = ?").get(accountId, month)
      ?.answered ?? 0
  );
}
