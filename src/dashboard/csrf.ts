import { createHmac } from "node:crypto";
import type { Store } from "../db/client.ts";
import { randomToken, sameSecret } from "./secrets.ts";
import { settingOnce } from "./settings.ts";

/** Header htmx sends (from `hx-headers:inherited` on <body>) and the hidden field plain forms post. */
export const CSRF_HEADER = "x-csrf-token";
export const CSRF_FIELD = "_csrf";

/**
 * Synchronizer tokens without storage: HMAC-SHA256(instance secret, session digest). Bound to the
 * session, so a token from another session (or from before sign-in rotated the session) is
 * worthless; the secret lives in `settings` so tokens survive a restart like the sessions do, and
 * every replica on one database uses the same one (the first stored wins), so a token from a page
 * one replica served is accepted by the next.
 */
export class CsrfTokens {
  private secret?: Promise<string>;

  constructor(private readonly db: Store) {}

  async tokenFor(sessionDigest: string): Promise<string> {
    this.secret ??= settingOnce(this.db, "csrf_secret", randomToken()).catch((error) => {
      this.secret = undefined; // the database was unreachable: ask again next time
      throw error;
    });
    return createHmac("sha256", await this.secret)
      .update(`csrf:${sessionDigest}`)
      .digest("base64url");
  }

  async verify(sessionDigest: string, presented: string | undefined | null): Promise<boolean> {
    return (
      typeof presented === "string" && presented.length > 0 && sameSecret(presented, await this.tokenFor(sessionDigest))
    );
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
