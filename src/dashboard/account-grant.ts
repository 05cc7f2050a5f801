import type { Account } from "../access/accounts.ts";
import type { KeyIndex } from "../access/key-index.ts";
import { activeKeyOf } from "../access/keys.ts";
import type { Principal } from "../access/principal.ts";
import type { Store } from "../db/client.ts";

/**
 * The key grant a dashboard page prices under: the account's active key, so a lane or a sheet
 * priced in the browser is metered and receipted exactly like the same call made with that key.
 * Null when the account has no active key.
 */
export async function accountGrant(deps: { db: Store; keys: KeyIndex }, account: Account): Promise<Principal | null> {
  const key = await activeKeyOf(deps.db, account.id);
  if (!key) return null;
  const grant = deps.keys.byKeyId(key.id);
  return grant && !grant.revoked ? grant.principal : null;
}
