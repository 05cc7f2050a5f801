import { eq, like } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { createHash, randomBytes } from "node:crypto";
import { AccessError, hashPassword } from "./accounts.ts";

const randomToken = () => randomBytes(32).toString("base64url");
const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

/** A one-time link to set a password stays valid this long. */
export const PASSWORD_LINK_TTL_MS = 24 * 60 * 60 * 1000;
const LINK_PREFIX = "password_link:";

/** A password link's URL on the origin users reach the server at (the dashboard serves /password/:token). */
export const passwordLinkUrl = (origin: string, token: string) => `${origin.replace(/\/+$/, "")}/password/${token}`;

/**
 * Set an account's password (argon2id) and end every session it has, so whoever had the old
 * password is signed out everywhere. One transaction; nothing half-written.
 */
export async function setAccountPassword(db: Store, accountId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await inTransaction(db, (tx) => storePasswordHash(tx, accountId, passwordHash));
}

/** Inside the caller's transaction: the account's new password hash, and every session it had ended. */
async function storePasswordHash(tx: Store, accountId: string, passwordHash: string): Promise<void> {
  const { accounts, sessions } = tx.t;
  const updated = await first(
    tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, accountId)).returning({ id: accounts.id }),
  );
  if (!updated) throw new AccessError(`No account ${accountId}.`);
  await tx.delete(sessions).where(eq(sessions.accountId, accountId));
}

/**
 * A one-time link (its token; only the SHA-256 is stored, in `settings`) with which the account's
 * owner sets a password: what `accounts create` without a password and `accounts set-password`
 * without stdin print, so an operator never has to type someone's password or locks anyone out.
 * Issuing a new link for an account kills its older ones.
 */
export async function issuePasswordLink(
  db: Store,
  accountId: string,
  now: number,
  /** An admin's reset: the current password stops working and every session ends, with the link. */
  options: { resetPassword?: boolean } = {},
): Promise<string> {
  const token = randomToken();
  const { settings } = db.t;
  await inTransaction(db, async (tx) => {
    const { accounts } = tx.t;
    const owner = await first(
      tx.select({ disabledAt: accounts.disabledAt }).from(accounts).where(eq(accounts.id, accountId)),
    );
    if (!owner) throw new AccessError(`No account ${accountId}.`);
    if (owner.disabledAt !== null)
      throw new AccessError("The account is disabled; enable it before issuing a password link.");
    await forgetPasswordLinks(tx, accountId, now);
    if (options.resetPassword) {
      await tx.update(accounts).set({ passwordHash: null }).where(eq(accounts.id, accountId));
      await tx.delete(tx.t.sessions).where(eq(tx.t.sessions.accountId, accountId));
    }
    await tx.insert(settings).values({
      key: LINK_PREFIX + sha256Hex(token),
      value: JSON.stringify({ accountId, expiresAt: now + PASSWORD_LINK_TTL_MS }),
    });
  });
  return token;
}

/** Delete the account's password links (and every expired one), inside the caller's transaction. */
export async function forgetPasswordLinks(tx: Store, accountId: string, now: number): Promise<void> {
  const { settings } = tx.t;
  for (const row of await tx
    .select()
    .from(settings)
    .where(like(settings.key, `${LINK_PREFIX}%`))) {
    const link = parseLink(row.value);
    if (!link || link.accountId === accountId || link.expiresAt <= now)
      await tx.delete(settings).where(eq(settings.key, row.key));
  }
}

/** The account a live link belongs to, or undefined (unknown, used or expired). */
export async function passwordLinkAccount(db: Store, token: string, now: number): Promise<string | undefined> {
  const { settings } = db.t;
  const row = await first(
    db
      .select()
      .from(settings)
      .where(eq(settings.key, LINK_PREFIX + sha256Hex(token))),
  );
  const link = row ? parseLink(row.value) : undefined;
  return link && link.expiresAt > now ? link.accountId : undefined;
}

/**
 * Set the password through a link and kill the link; AccessError when the link is dead or the password
 * too short. The link is claimed by deleting its row in the transaction that stores the password, so
 * two requests racing with one link cannot both set a password.
 */
export async function redeemPasswordLink(db: Store, token: string, password: string, now: number): Promise<string> {
  const dead = () => new AccessError("This link has been used already or has expired.");
  // Checked before hashing, which takes a while, so a dead link is told at once.
  if (!(await passwordLinkAccount(db, token, now))) throw dead();
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (tx) => {
    const { settings } = tx.t;
    const [claimed] = await tx
      .delete(settings)
      .where(eq(settings.key, LINK_PREFIX + sha256Hex(token)))
      .returning({ value: settings.value });
    const link = claimed ? parseLink(claimed.value) : undefined;
    if (!link || link.expiresAt <= now) throw dead();
    await storePasswordHash(tx, link.accountId, passwordHash);
    return link.accountId;
  });
}

function parseLink(value: string): { accountId: string; expiresAt: number } | undefined {
  try {
    const parsed = JSON.parse(value) as { accountId?: unknown; expiresAt?: unknown };
    return typeof parsed.accountId === "string" && typeof parsed.expiresAt === "number"
      ? { accountId: parsed.accountId, expiresAt: parsed.expiresAt }
      : undefined;
  } catch {
    return undefined;
  }
}
