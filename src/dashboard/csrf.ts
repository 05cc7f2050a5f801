import { createHmac } from "node:crypto";
import type { Db } from "../db/client.ts";
import { randomToken, sameSecret } from "./secrets.ts";
import { readSetting, writeSetting } from "./settings.ts";

/** Header htmx sends (from `hx-headers:inherited` on <body>) and the hidden field plain forms post. */
export const CSRF_HEADER = "x-csrf-token";
export const CSRF_FIELD = "_csrf";

/**
 * Synchronizer tokens without storage: HMAC-SHA256(instance secret, session digest). Bound to the
 * session, so a token from another session (or from before sign-in rotated the session) is
 * worthless; the secret lives in `settings` so tokens survive a restart like the sessions do.
 */
export class CsrfTokens {
  private readonly secret: string;

  constructor(db: Db) {
    let secret = readSetting(db, "csrf_secret");
    if (!secret) {
      secret = randomToken();
      writeSetting(db, "csrf_secret", secret);
    }
    this.secret = secret;
  }

  tokenFor(sessionDigest: string): string {
    return createHmac("sha256", this.secret).update(`csrf:${sessionDigest}`).digest("base64url");
  }

  verify(sessionDigest: string, presented: string | undefined | null): boolean {
    return typeof presented === "string" && presented.length > 0 && sameSecret(presented, this.tokenFor(sessionDigest));
  }
}

/**
 * Fetch-metadata and Origin check, the defence that also covers forms posted before a session
 * exists (sign-in, setup): a browser marks a cross-site request, and we refuse it. Requests from
 * non-browser clients carry neither header and fall through to the token check.
 */
export function isCrossSiteRequest(request: Request, publicUrl?: URL): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return true;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  try {
    const host = new URL(origin).host;
    return host !== new URL(request.url).host && host !== publicUrl?.host;
  } catch {
    return true; // "null" (sandboxed or privacy-sensitive contexts) or garbage
  }
}
