import type { DashboardOptions } from "./deps.ts";
import { ABSOLUTE_TIMEOUT_MS } from "./sessions.ts";

/**
 * Which cookie carries the session, decided per request:
 * - HTTPS, or plain HTTP to a loopback host: `__Host-waybill_session` with Secure. Browsers treat
 *   http://localhost and 127.0.0.0/8 as potentially trustworthy and accept Secure cookies there,
 *   so the default local install gets the strict prefix too.
 * - Plain HTTP to any other host (a LAN address without TLS): browsers drop Secure cookies from
 *   insecure origins, and `__Host-` requires Secure, so the cookie is `waybill_session` without
 *   Secure. Still HttpOnly and SameSite=Lax; the operator should put TLS in front.
 * Only the name that fits the request is read back, so a cookie planted over plain HTTP is never
 * accepted on the HTTPS origin.
 */
export interface SessionCookiePolicy {
  name: "__Host-waybill_session" | "waybill_session";
  secure: boolean;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export function requestIsHttps(request: Request, options: DashboardOptions): boolean {
  if (options.trustProxy) {
    const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
    if (forwarded) return forwarded === "https";
  }
  return new URL(request.url).protocol === "https:";
}

export function sessionCookiePolicy(request: Request, options: DashboardOptions): SessionCookiePolicy {
  const secureContext = options.publicUrl
    ? options.publicUrl.protocol === "https:" || isLoopbackHost(options.publicUrl.hostname)
    : requestIsHttps(request, options) || isLoopbackHost(new URL(request.url).hostname);
  return secureContext ? { name: "__Host-waybill_session", secure: true } : { name: "waybill_session", secure: false };
}

export function readSessionToken(request: Request, policy: SessionCookiePolicy): string | undefined {
  return readCookie(request, policy.name);
}

function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return decodedOrNothing(part.slice(separator + 1).trim());
  }
  return undefined;
}

/**
 * The known-browser cookie (src/dashboard/throttle.ts): set at each sign-in, it lets this browser's
 * later attempts count on their own record, so failures elsewhere cannot lock its owner out. Same
 * prefix and attributes as the session cookie; it outlives the session.
 */
const knownBrowserCookieName = (policy: SessionCookiePolicy) =>
  policy.secure ? "__Host-waybill_browser" : "waybill_browser";
const KNOWN_BROWSER_MAX_AGE_S = 180 * 24 * 60 * 60;

export function readKnownBrowserToken(request: Request, policy: SessionCookiePolicy): string | undefined {
  return readCookie(request, knownBrowserCookieName(policy));
}

export function knownBrowserCookieHeader(policy: SessionCookiePolicy, token: string): string {
  const attributes = [
    `${knownBrowserCookieName(policy)}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${KNOWN_BROWSER_MAX_AGE_S}`,
  ];
  if (policy.secure) attributes.push("Secure");
  return attributes.join("; ");
}

/** A malformed percent-escape (`%E0%A4%A`) is no session at all, never an error: the visitor is simply signed out. */
function decodedOrNothing(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** Set-Cookie for a fresh session. Max-Age follows the absolute timeout; the server enforces both timeouts anyway. */
export function sessionCookieHeader(policy: SessionCookiePolicy, token: string): string {
  const attributes = [
    `${policy.name}=${token}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${ABSOLUTE_TIMEOUT_MS / 1000}`,
  ];
  if (policy.secure) attributes.push("Secure");
  return attributes.join("; ");
}

export function clearedSessionCookieHeader(policy: SessionCookiePolicy): string {
  const attributes = [`${policy.name}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0"];
  if (policy.secure) attributes.push("Secure");
  return attributes.join("; ");
}
