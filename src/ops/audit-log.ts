import { desc, eq } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { inTransaction } from "../db/transaction.ts";

export type AuditAction =
  | "account_created"
  | "signed_in"
  | "key_created"
  | "key_revoked"
  | "tier_changed"
  | "password_changed"
  | "password_link_issued"
  | "password_reset"
  | "account_disabled"
  | "account_enabled";

/** Who acted: the command line, or the dashboard user (by account id). */
export type AuditActor = "cli" | { accountId: string };

export interface AuditEntry {
  at: number;
  accountId: string;
  email: string;
  action: AuditAction;
  actor: string;
  detail: string | null;
}

/** Append one line to the account audit log. Never pass a secret as `detail`. */
export async function recordAccountEvent(
  db: Store,
  event: { at: number; accountId: string; action: AuditAction; actor: AuditActor; detail?: string },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.insert(tx.t.accountAudit).values({
      at: event.at,
      accountId: event.accountId,
      action: event.action,
      actor: event.actor === "cli" ? "cli" : event.actor.accountId,
      detail: event.detail ?? null,
    });
  });
}

/** The newest entries, for every account or one; with the account's email for display. */
export async function recentAccountEvents(
  db: Store,
  options: { accountId?: string; limit?: number } = {},
): Promise<AuditEntry[]> {
  const { accountAudit, accounts } = db.t;
  const query = db
    .select({
      at: accountAudit.at,
      accountId: accountAudit.accountId,
      email: accounts.email,
      action: accountAudit.action,
      actor: accountAudit.actor,
      detail: accountAudit.detail,
    })
    .from(accountAudit)
    .innerJoin(accounts, eq(accounts.id, accountAudit.accountId));
  const filtered = options.accountId ? query.where(eq(accountAudit.accountId, options.accountId)) : query;
  return (await filtered
    .orderBy(desc(accountAudit.at), desc(accountAudit.id))
    .limit(options.limit ?? 200)) as AuditEntry[];
}
