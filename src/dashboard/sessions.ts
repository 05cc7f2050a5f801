import { eq, lt, or } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { randomToken, sha256Hex } from "./secrets.ts";

/** A session ends after this long without a request… */
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** …and in any case this long after sign-in. */
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** Sliding the idle window rewrites the row; once a minute is precise enough and spares a write per request. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface Session {
  /** SHA-256 of the cookie token: the row's key, and what the CSRF token is bound to. */
  digest: string;
  accountId: string;
  expiresAt: number;
}

export interface StartedSession {
  /** The cookie value; only its digest is stored. */
  token: string;
  session: Session;
}

/**
 * Sign-in: a brand-new session, never a reused id. The session the browser came with (if any)
 * is deleted, and so is every expired row.
 */
export async function startSession(
  db: Store,
  accountId: string,
  now: number,
  previousToken?: string,
): Promise<StartedSession> {
  const token = randomToken();
  const digest = sha256Hex(token);
  const expiresAt = now + ABSOLUTE_TIMEOUT_MS;
  await inTransaction(db, async (tx) => {
    const { sessions } = tx.t;
    if (previousToken) await tx.delete(sessions).where(eq(sessions.digest, sha256Hex(previousToken)));
    await tx.delete(sessions).where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, now - IDLE_TIMEOUT_MS)));
    await tx.insert(sessions).values({ digest, accountId, createdAt: now, lastSeenAt: now, expiresAt });
  });
  return { token, session: { digest, accountId, expiresAt } };
}

/** The live session for a cookie token, sliding its idle window; undefined (and the row gone) once expired. */
export async function resumeSession(db: Store, token: string, now: number): Promise<Session | undefined> {
  const { sessions } = db.t;
  const digest = sha256Hex(token);
  const row = await first(db.select().from(sessions).where(eq(sessions.digest, digest)));
  if (!row) return undefined;
  if (now >= row.expiresAt || now - row.lastSeenAt >= IDLE_TIMEOUT_MS) {
    await inTransaction(db, async (tx) => {
      await tx.delete(sessions).where(eq(sessions.digest, digest));
    });
    return undefined;
  }
  if (now - row.lastSeenAt >= TOUCH_EVERY_MS) {
    await inTransaction(db, async (tx) => {
      await tx.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.digest, digest));
    });
  }
  return { digest, accountId: row.accountId, expiresAt: row.expiresAt };
}

export async function endSession(db: Store, token: string): Promise<void> {
  const { sessions } = db.t;
  await inTransaction(db, async (tx) => {
    await tx.delete(sessions).where(eq(sessions.digest, sha256Hex(token)));
  });
}
