import { eq, lt, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sessions } from "../db/schema.ts";
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
export function startSession(db: Db, accountId: string, now: number, previousToken?: string): StartedSession {
  const token = randomToken();
  const digest = sha256Hex(token);
  const expiresAt = now + ABSOLUTE_TIMEOUT_MS;
  db.transaction((tx) => {
    if (previousToken)
      tx.delete(sessions)
        .where(eq(sessions.digest, sha256Hex(previousToken)))
        .run();
    tx.delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, now - IDLE_TIMEOUT_MS)))
      .run();
    tx.insert(sessions).values({ digest, accountId, createdAt: now, lastSeenAt: now, expiresAt }).run();
  });
  return { token, session: { digest, accountId, expiresAt } };
}

/** The live session for a cookie token, sliding its idle window; undefined (and the row gone) once expired. */
export function resumeSession(db: Db, token: string, now: number): Session | undefined {
  const digest = sha256Hex(token);
  const row = db.select().from(sessions).where(eq(sessions.digest, digest)).get();
  if (!row) return undefined;
  if (now >= row.expiresAt || now - row.lastSeenAt >= IDLE_TIMEOUT_MS) {
    db.delete(sessions).where(eq(sessions.digest, digest)).run();
    return undefined;
  }
  if (now - row.lastSeenAt >= TOUCH_EVERY_MS) {
    db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.digest, digest)).run();
  }
  return { digest, accountId: row.accountId, expiresAt: row.expiresAt };
}

export function endSession(db: Db, token: string): void {
  db.delete(sessions)
    .where(eq(sessions.digest, sha256Hex(token)))
    .run();
}
