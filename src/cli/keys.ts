import { requireAccountByEmail } from "../access/accounts.ts";
import { issueKey, parseScopes, revokeActiveKey } from "../access/keys.ts";
import type { Clock } from "../clock.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import type { Db } from "../db/client.ts";
import { argument, failure, ok, UsageError, type CommandResult } from "./result.ts";

export function keysCreate(db: Db, clock: Clock, options: { email?: string; scopes?: string; json: boolean }): CommandResult {
  if (!options.email) throw new UsageError("keys create needs --email.");
  const scopes = argument(() => parseScopes(options.scopes?.split(",").map((s) => s.trim()).filter(Boolean)));
  const account = requireAccountByEmail(db, options.email);
  const issued = issueKey(db, account.id, scopes, clock.now());
  recordAccountEvent(db, { at: clock.now(), accountId: account.id, action: "key_created", actor: "cli", detail: issued.record.displayId });
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

export function keysRevoke(db: Db, clock: Clock, options: { email?: string; json: boolean }): CommandResult {
  if (!options.email) throw new UsageError("keys revoke needs --email.");
  const account = requireAccountByEmail(db, options.email);
  const revoked = revokeActiveKey(db, account.id, clock.now());
  if (!revoked) return failure(options.json, `${account.email} has no active key.`);
  recordAccountEvent(db, { at: clock.now(), accountId: account.id, action: "key_revoked", actor: "cli", detail: revoked.displayId });
  return ok(options.json, { revoked: revoked.id, display_id: revoked.displayId }, `revoked ${revoked.displayId} (${revoked.id})`);
}
