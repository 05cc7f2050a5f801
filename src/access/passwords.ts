import { eq, like } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { accounts, sessions, settings } from "../db/schema.ts";
import { createHash, randomBytes } from "node:crypto";
import { AccessError, hashPassword } from "./accounts.ts";

const randomToken = () => randomBytes(32).toString("base64url");
const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/** A one-time link to set a password stays valid this long. */
export const PASSWORD_LINK_TTL_MS = 24 * 60 * 60 * 1000;
const LINK_PREFIX = "password_link:";

/**
 * Set an account's password (argon2id) and end every session it has, so whoever had the old
 * password is signed out everywhere. One transaction; nothing half-written.
 */
export async function setAccountPassword(db: Db, accountId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  db.transaction((tx) => {
    const updated = tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId)).returning({ id: accounts.id }).get();
    if (!updated) throw new AccessError(`No account ${accountId}.`);
    tx.delete(sessions).where(eq(sessions.accountId, accountId)).run();
  });
}

/**
 * A one-time link (its token; only the SHA-256 is stored, in `settings`) with which the account's
 * owner sets a password: what `accounts create` without a password and `accounts set-password`
 * without stdin print, so an operator never has to type someone's password or locks anyone out.
 * Issuing a new link for an account kills its older ones.
 */
export function issuePasswordLink(db: Db, accountId: string, now: number): string {
  const token = randomToken();
  db.transaction((tx) => {
    for (const row of tx
      .select()
      .from(settings)
      .where(like(settings.key, `${LINK_PREFIX}%`))
      .all()) {
      const link = parseLink(row.value);
      if (!link || link.accountId === accountId || link.expiresAt <= now) tx.delete(settings).where(eq(settings.key, row.key)).run();
    }
    tx.insert(settings)
      .values({ key: LINK_PREFIX + sha256Hex(token), value: JSON.stringify({ accountId, expiresAt: now + PASSWORD_LINK_TTL_MS }) })
      .run();
  });
  return token;
}

/** The account a live link belongs to, or undefined (unknown, used or expired). */
export function passwordLinkAccount(db: Db, token: string, now: number): string | undefined {
  const row = db
    .select()
    .from(settings)
    .where(eq(settings.key, LINK_PREFIX + sha256Hex(token)))
    .get();
  const link = row ? parseLink(row.value) : undefined;
  return link && link.expiresAt > now ? link.accountId : undefined;
}

/** Set the password through a link and kill the link; AccessError when the link is dead or the password too short. */
export async function redeemPasswordLink(db: Db, token: string, password: string, now: number): Promise<string> {
  const accountId = passwordLinkAccount(db, token, now);
  if (!accountId) throw new AccessError("This link has been used already or has expired.");
  await setAccountPassword(db, accountId, password);
  db.delete(settings)
    .where(eq(settings.key, LINK_PREFIX + sha256Hex(token)))
    .run();
  return accountId;
}

function parseLink(value: string): { accountId: string; expiresAt: number } | undefined {
  try {
    const parsed = JSON.parse(value) as { accountId?: unknown; expiresAt?: unknown };
    return typeof parsed.accountId === "string" && typeof parsed.expiresAt === "number" ? { accountId: parsed.accountId, expiresAt: parsed.expiresAt } : undefined;
  } catch {
    return undefined;
  }
}
