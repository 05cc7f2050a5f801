import {
  createAccount,
  hashPassword,
  listAccounts,
  normalizeEmail,
  parseTier,
  requireAccountByEmail,
  setTier,
} from "../access/accounts.ts";
import { issuePasswordLink, passwordLinkUrl, setAccountPassword } from "../access/passwords.ts";
import type { Tier } from "../access/tiers.ts";
import type { Clock } from "../clock.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import type { Store } from "../db/client.ts";
import { argument, ok, UsageError, type CommandResult } from "./result.ts";

export interface AccountsCreateOptions {
  email?: string;
  tier?: string;
  admin?: boolean;
  password?: string;
  json: boolean;
}

/** `accounts create`'s arguments, checked (the password hashed) before any database is opened or created. */
export interface AccountsCreateRequest {
  email: string;
  tier: Tier;
  admin: boolean;
  passwordHash: string | null;
  json: boolean;
}

export async function accountsCreateRequest(options: AccountsCreateOptions): Promise<AccountsCreateRequest> {
  const email = options.email;
  if (!email) throw new UsageError("accounts create needs --email.");
  argument(() => normalizeEmail(email));
  const password = options.password;
  return {
    email,
    tier: argument(() => parseTier(options.tier ?? "explorer")),
    admin: options.admin ?? false,
    passwordHash: password === undefined ? null : await argumentAsync(() => hashPassword(password)),
    json: options.json,
  };
}

/** Creates the account; `publicUrl` is the origin its one-time password link points at. */
export async function accountsCreate(
  db: Store,
  clock: Clock,
  options: AccountsCreateRequest & { publicUrl: string },
): Promise<CommandResult> {
  const { tier, passwordHash } = options;
  const now = clock.now();
  const account = await createAccount(db, { email: options.email, tier, isAdmin: options.admin, passwordHash }, now);
  await recordAccountEvent(db, {
    at: now,
    accountId: account.id,
    action: "account_created",
    actor: "cli",
    detail: `${account.tier}${account.isAdmin ? ", admin" : ""}`,
  });
  // Without a password nobody could sign in as this account: hand out a one-time link to set one.
  const link =
    passwordHash === null
      ? passwordLinkUrl(options.publicUrl, await issuePasswordLink(db, account.id, now))
      : undefined;
  if (link)
    await recordAccountEvent(db, { at: now, accountId: account.id, action: "password_link_issued", actor: "cli" });
  const view = {
    id: account.id,
    email: account.email,
    tier: account.tier,
    admin: account.isAdmin,
    ...(link ? { password_link: link } : {}),
  };
  const text = `created account ${account.email} (${account.id}), tier ${account.tier}${account.isAdmin ? ", admin" : ""}`;
  return ok(options.json, view, link ? `${text}\nno password yet: open ${link} once (valid 24 h) to set one` : text);
}

export async function accountsSetTier(
  db: Store,
  options: { email?: string; tier?: string; json: boolean },
): Promise<CommandResult> {
  const { email, tier: tierName } = options;
  if (!email || !tierName) throw new UsageError("accounts set-tier needs --email and --tier.");
  const tier = argument(() => parseTier(tierName));
  const before = await requireAccountByEmail(db, email);
  const account = await setTier(db, before.id, tier);
  await recordAccountEvent(db, {
    at: Date.now(),
    accountId: account.id,
    action: "tier_changed",
    actor: "cli",
    detail: `${before.tier} → ${account.tier}`,
  });
  return ok(
    options.json,
    { id: account.id, email: account.email, tier: account.tier },
    `${account.email} is now on ${account.tier}`,
  );
}

export async function accountsList(db: Store, options: { json: boolean }): Promise<CommandResult> {
  const rows = (await listAccounts(db)).map((a) => ({
    id: a.id,
    email: a.email,
    tier: a.tier,
    admin: a.isAdmin,
    created_at: new Date(a.createdAt).toISOString(),
  }));
  const text =
    rows.length === 0
      ? "no accounts"
      : rows.map((r) => `${r.email}\t${r.tier}${r.admin ? "\tadmin" : ""}\t${r.id}`).join("\n");
  return ok(options.json, { accounts: rows }, text);
}

/** `accounts set-password`: from stdin, or a one-time link for the account's owner. Signs the account out everywhere. */
export async function accountsSetPassword(
  db: Store,
  clock: Clock,
  options: { email?: string; password?: string; publicUrl: string; json: boolean },
): Promise<CommandResult> {
  if (!options.email) throw new UsageError("accounts set-password needs --email.");
  const account = await requireAccountByEmail(db, options.email);
  const now = clock.now();
  const { password } = options;
  if (password === undefined) {
    const link = passwordLinkUrl(options.publicUrl, await issuePasswordLink(db, account.id, now));
    await recordAccountEvent(db, { at: now, accountId: account.id, action: "password_link_issued", actor: "cli" });
    return ok(
      options.json,
      { email: account.email, password_link: link },
      `open ${link} once (valid 24 h) to set the password of ${account.email}`,
    );
  }
  await argumentAsync(() => setAccountPassword(db, account.id, password));
  await recordAccountEvent(db, { at: now, accountId: account.id, action: "password_changed", actor: "cli" });
  return ok(
    options.json,
    { email: account.email, password_set: true },
    `password of ${account.email} set; its sessions are signed out`,
  );
}

/** A too-short password is a bad argument (exit 2), like an unknown tier. */
async function argumentAsync<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
