import type { Db } from "../db/client.ts";
import type { Principal } from "./principal.ts";
import type { Tier } from "./tiers.ts";

export type KeyGrant = { revoked: false; principal: Principal } | { revoked: true; principal: Principal };

interface GrantRow {
  digest: string;
  key_id: string;
  account_id: string;
  auth_obj_id: string;
  scopes: string | null;
  revoked_at: number | null;
  tier: Tier;
}

/**
 * Every key grant, in memory, by digest. Every well-formed key costs the same: one SHA-256 and one
 * Map lookup, whether it exists or not, so timing tells a caller nothing about other keys. The
 * index holds one row per key ever issued (one active per account), so a full reload on any
 * access write stays cheap and can never leave a stale entry behind.
 */
export class KeyIndex {
  private grants = new Map<string, KeyGrant>();
  private readonly selectAll;

  constructor(db: Db) {
    this.selectAll = db.$client.prepare<GrantRow, []>(
      `SELECT k.digest, k.id AS key_id, k.account_id, k.auth_obj_id, k.scopes, k.revoked_at, a.tier
       FROM api_keys k JOIN accounts a ON a.id = k.account_id`,
    );
    this.reload();
  }

  reload(): void {
    const grants = new Map<string, KeyGrant>();
    for (const row of this.selectAll.all()) {
      const principal: Principal = {
        accountId: row.account_id,
        keyId: row.key_id,
        authObjId: row.auth_obj_id,
        tier: row.tier,
        scopes: row.scopes === null ? null : (JSON.parse(row.scopes) as string[]),
      };
      grants.set(row.digest, { revoked: row.revoked_at !== null, principal });
    }
    this.grants = grants;
  }

  lookup(digest: string): KeyGrant | undefined {
    return this.grants.get(digest);
  }
}
