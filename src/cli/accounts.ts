import { createAccount, hashPassword, listAccounts, normalizeEmail, parseTier, requireAccountByEmail, setTier } from "../access/accounts.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { argument, ok, UsageError, type CommandResult } from "./result.ts";

export interface AccountsCreateOptions {
  email?: string;
  tier?: string;
  admin?: boolean;
  password?: string;
  json: boolean;
}

export async function accountsCreate(db: Db, clock: Clock, options: AccountsCreateOptions): Promise<CommandResult> {
  if (!options.email) throw new UsageError("accounts create needs --email.");
  argument(() => normalizeEmail(options.email!));
  const tier = argument(() => parseTier(options.tier ?? "explorer"));
  const passwordHash = options.password === undefined ? null : await hashPassword(options.password);
  const account = createAccount(db, { email: options.email, tier, isAdmin: options.admin ?? false, passwordHash }, clock.now());
  const view = { id: account.id, email: account.email, tier: account.tier, admin: account.isAdmin };
  return ok(options.json, view, `created account ${account.email} (${account.id}), tier ${account.tier}${account.isAdmin ? ", admin" : ""}`);
}

export function accountsSetTier(db: Db, options: { email?: string; tier?: string; json: boolean }): CommandResult {
  if (!options.email || !options.tier) throw new UsageError("accounts set-tier needs --email and --tier.");
  const tier = argument(() => parseTier(options.tier!));
  const account = setTier(db, requireAccountByEmail(db, options.email).id, tier);
  return ok(options.json, { id: account.id, email: account.email, tier: account.tier }, `${account.email} is now on ${account.tier}`);
}

export function accountsList(db: Db, options: { json: boolean }): CommandResult {
  const rows = listAccounts(db).map((a) => ({
    id: a.id,
    email: a.email,
    tier: a.tier,
    admin: a.isAdmin,
    created_at: new Date(a.createdAt).toISOString(),
  }));
  const text = rows.length === 0 ? "no accounts" : rows.map((r) => `${r.email}\t${r.tier}${r.admin ? "\tadmin" : ""}\t${r.id}`).join("\n");
  return ok(options.json, { accounts: rows }, text);
}
