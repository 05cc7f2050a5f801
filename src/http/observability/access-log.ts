import { displayIdOf, KEY_PREFIX } from "../../access/api-key.ts";
import { log } from "../../ops/log.ts";

/** Who a request ran as, once something authenticated it (a bearer key, or a dashboard session). */
export interface RequestActor {
  accountId: string;
  /** The bearer key's public display id (`wbk_` + 8 hex + `…`); never the key. */
  keyDisplayId?: string;
}

const BEARER_KEY = /^Bearer[ ]+(\S+)/i;

/**
 * The display id of the key a request authenticated with (never the key itself). Only asked once the
 * key was found in the index, so its form and checksum were checked already.
 */
export function keyDisplayIdOf(request: Request): string | undefined {
  const key = BEARER_KEY.exec(request.headers.get("authorization") ?? "")?.[1];
  return key?.startsWith(KEY_PREFIX) ? displayIdOf(key) : undefined;
}

export interface AccessLogEntry {
  requestId: string;
  method: string;
  route: string;
  status: number;
  latencyMs: number;
  actor?: RequestActor;
}

/**
 * One line per request (docs/operations.md, "Access log"): request id, method, route pattern (not
 * the raw path, which may carry ids), status (499 when the client went away first), latency,
 * account id and key display id. Never a key, a body, a query string or a cookie.
 */
export function logAccess(entry: AccessLogEntry): void {
  log.info("request", {
    request_id: entry.requestId,
    method: entry.method,
    route: entry.route,
    status: entry.status,
    latency_ms: Math.round(entry.latencyMs * 100) / 100,
    account_id: entry.actor?.accountId ?? null,
    key: entry.actor?.keyDisplayId ?? null,
  });
}
