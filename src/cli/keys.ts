import { requireAccountByEmail } from "../access/accounts.ts";
import { issueKey, parseScopes, revokeActiveKey } from "../access/keys.ts";
import type { Clock } from "../clock.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import type { Store } from "../db/client.ts";
import { verifierKey } from "../receipts/log/note.ts";
import { storedLogOrigin } from "../receipts/log/origin.ts";
import { lockedNewSigningKey } from "../receipts/signer.ts";
import { portableReceiptRows } from "../receipts/rows/portable.ts";
import { inTransaction } from "../db/transaction.ts";
import { argument, failure, ok, UsageError, type CommandResult } from "./result.ts";

export async function keysCreate(
  db: Store,
  clock: Clock,
  options: { email?: string; scopes?: string; json: boolean },
): Promise<CommandResult> {
  if (!options.email) throw new UsageError("keys create needs --email.");
  const scopes = argument(() =>
    parseScopes(
      options.scopes
        ?.split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  );
  const account = await requireAccountByEmail(db, options.email);
  const issued = await issueKey(db, account.id, scopes, clock.now());
  await recordAccountEvent(db, {
    at: clock.now(),
    accountId: account.id,
    action: "key_created",
    actor: "cli",
    detail: issued.record.displayId,
  });
  const view = {
    key: issued.key,
    key_id: issued.record.id,
    display_id: issued.record.displayId,
    auth_obj_id: issued.record.authObjId,
    scopes: issued.record.scopes ?? [],
    revoked_key_id: issued.revokedKeyId,
  };
  const text = [
    issued.key,
    `This key is shown once. Scopes: ${scopes ? scopes.join(", ") : "all skills the tier allows"}.`,
    issued.revokedKeyId ? `The previous key ${issued.revokedKeyId} is revoked.` : "",
  ]
    .filter(Boolean)
    .join("\n");
  return ok(options.json, view, text);
}

export async function keysRevoke(
  db: Store,
  clock: Clock,
  options: { email?: string; json: boolean },
): Promise<CommandResult> {
  if (!options.email) throw new UsageError("keys revoke needs --email.");
  const account = await requireAccountByEmail(db, options.email);
  const revoked = await revokeActiveKey(db, account.id, clock.now());
  if (!revoked) return failure(options.json, `${account.email} has no active key.`);
  await recordAccountEvent(db, {
    at: clock.now(),
    accountId: account.id,
    action: "key_revoked",
    actor: "cli",
    detail: revoked.displayId,
  });
  return ok(
    options.json,
    { revoked: revoked.id, display_id: revoked.displayId },
    `revoked ${revoked.displayId} (${revoked.id})`,
  );
}

/** `waybill keys rotate-signing`: a new log key; checkpoints name the key that signed them. */
export async function keysRotateSigning(db: Store, clock: Clock, options: { json: boolean }): Promise<CommandResult> {
  const rows = portableReceiptRows(db);
  // Under the log's lock: replicas switch keys between batches, never inside one.
  const key = await inTransaction(db, (tx) => lockedNewSigningKey(rows, tx, clock));
  const origin = await storedLogOrigin(rows);
  const noteKey = origin ? verifierKey(origin, Buffer.from(key.publicKey, "base64url")) : null;
  const view = { kid: key.kid, public_key: key.publicKey, note_verifier_key: noteKey };
  const text = [
    `new signing key ${key.kid}; it signs every checkpoint from now on (running servers switch before their next batch).`,
    noteKey ? `note verifier key: ${noteKey}` : "the log has no origin yet: the first start names it.",
    "older keys stay published at /v1/receipts/public-key, so what they signed stays verifiable.",
  ].join("\n");
  return ok(options.json, view, text);
}
