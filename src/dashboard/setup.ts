import { createAccount, hasAdmin, hashPassword, type Account } from "../access/accounts.ts";
import type { Store } from "../db/client.ts";
import { inTransaction, oneWriterAtATime } from "../db/transaction.ts";
import { randomToken, sameSecret, sha256Hex } from "./secrets.ts";
import { deleteSetting, readSetting, writeSetting } from "./settings.ts";

/** Completing setup takes turns across replicas (src/db/transaction.ts). */
const SETUP_LOCK = 0x57a7_5e70;

/**
 * First start with no admin: a fresh one-time token, of which only the SHA-256 is kept, and the
 * URL to print. Every start without an admin replaces the token (the plaintext of an earlier one
 * cannot be recovered, by design), so only the most recently printed URL works. Once an admin
 * exists the stored digest is dropped and this returns null.
 */
export async function setupUrlOnFirstStart(db: Store, baseUrl: string): Promise<string | null> {
  if (await hasAdmin(db)) {
    await deleteSetting(db, "setup_token_sha256");
    return null;
  }
  const token = randomToken();
  await writeSetting(db, "setup_token_sha256", sha256Hex(token));
  return `${baseUrl.replace(/\/+$/, "")}/setup/${token}`;
}

/** Whether a token from a setup URL is the live one: there is no admin yet and its digest matches. */
export async function isLiveSetupToken(db: Store, token: string): Promise<boolean> {
  const stored = await readSetting(db, "setup_token_sha256");
  return stored !== undefined && !(await hasAdmin(db)) && sameSecret(sha256Hex(token), stored);
}

export class SetupRefused extends Error {}

/**
 * Create the admin account and kill the token in one transaction, so two racing submissions of
 * the same URL cannot both create an admin. Password rules and email checks are AccessError's.
 */
export async function completeSetup(
  db: Store,
  token: string,
  email: string,
  password: string,
  now: number,
): Promise<Account> {
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (tx) => {
    await oneWriterAtATime(tx, SETUP_LOCK); // two replicas given the same link: one admin
    if (!(await isLiveSetupToken(tx, token)))
      throw new SetupRefused("This setup link has already been used or has expired.");
    const admin = await createAccount(tx, { email, isAdmin: true, passwordHash }, now);
    await deleteSetting(tx, "setup_token_sha256");
    return admin;
  });
}
