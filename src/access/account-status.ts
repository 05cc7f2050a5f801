import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { markChanged } from "../db/changes.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { AccessError } from "./accounts.ts";
import { type KeyRecord, revokeInTransaction } from "./keys.ts";
import { forgetPasswordLinks } from "./passwords.ts";

/**
 * Disable an account (an admin's action, docs/dashboard.md): in one transaction it is marked
 * disabled, its key is revoked (every replica refuses it from its next request on), its password
 * and password links are removed, and its sessions end. So nobody can sign in as it, call with its
 * key or set a password until an admin enables it again. Its records (receipts, usage) stay.
 */
export async function disableAccount(
  db: Store,
  accountId: string,
  now: number,
): Promise<{ revokedKey: KeyRecord | undefined }> {
  const result = await inTransaction(db, async (tx) => {
    const { accounts, sessions } = tx.t;
    const disabled = await first(
      tx
        .update(accounts)
        .set({ disabledAt: now, passwordHash: null })
        .where(and(eq(accounts.id, accountId), isNull(accounts.disabledAt)))
        .returning({ id: accounts.id }),
    );
    if (!disabled) throw new AccessError("The account does not exist or is disabled already.");
    await tx.delete(sessions).where(eq(sessions.accountId, accountId));
    await forgetPasswordLinks(tx, accountId, now);
    return { revokedKey: await revokeInTransaction(tx, accountId, now) };
  });
  markChanged(db);
  return result;
}

/** Enable a disabled account. It has no password any more: its owner needs a password link. */
export async function enableAccount(db: Store, accountId: string): Promise<void> {
  const { accounts } = db.t;
  const enabled = await first(
    db
      .update(accounts)
      .set({ disabledAt: null })
      .where(and(eq(accounts.id, accountId), isNotNull(accounts.disabledAt)))
      .returning({ id: accounts.id }),
  );
  if (!enabled) throw new AccessError("The account does not exist or is not disabled.");
}
