import type { Tier } from "./access/tiers.ts";

/**
 * The error table (docs/api.md, Errors). Every error body the service sends is built here and nowhere else:
 * `{ error, message, doc_url, request_id, [auth_obj_id], ...extra }`.
 */
export type ErrorCode =
  | "INVALID_REQUEST"
  | "MISSING_API_KEY"
  | "MALFORMED_API_KEY"
  | "INVALID_API_KEY"
  | "REVOKED_API_KEY"
  | "TIER_REQUIRED"
  | "SCOPE_REQUIRED"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNRESOLVED_LOCATION"
  | "IDEMPOTENCY_KEY_REUSED"
  | "AMBIGUOUS_LOCATION"
  | "NOT_ROAD_CONNECTED"
  | "RATE_LIMITED"
  | "ALERT_LIMIT_REACHED"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE";

/** Every code of the error table with its HTTP status (the OpenAPI document and the agent guide list them from here). */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  INVALID_REQUEST: 400,
  MISSING_API_KEY: 401,
  MALFORMED_API_KEY: 401,
  INVALID_API_KEY: 401,
  REVOKED_API_KEY: 401,
  TIER_REQUIRED: 403,
  SCOPE_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNRESOLVED_LOCATION: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  AMBIGUOUS_LOCATION: 422,
  NOT_ROAD_CONNECTED: 422,
  RATE_LIMITED: 429,
  ALERT_LIMIT_REACHED: 409,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** Seconds a caller is asked to wait while the database cannot be reached (a restart or failover takes a few). */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

export interface FieldProblem {
  field: string;
  problem: string;
  allowed?: readonly string[];
}

/**
 * Where a code is explained (its anchor on the server's /docs/errors page), sent as `doc_url` with
 * every error, like Stripe's `doc_url`. Relative to the server, as `upgrade_url` is.
 */
export const errorDocUrl = (code: ErrorCode) => `/docs/errors#${code}`;

let stackTraceLimit = 0;
/** Turns stack capture off for one Error construction (the constructor turns it back on right after). */
function withoutStackTrace(message: string): string {
  stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return message;
}

/**
 * A refusal the caller can act on. `errorCode` (not `code`: Elysia reserves that name on thrown errors).
 * A refusal is an answer, not a fault: nothing reads its stack, so none is captured (capturing it was
 * ≈ 7 % of the CPU of a refused call).
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly errorCode: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(withoutStackTrace(message));
    Error.stackTraceLimit = stackTraceLimit;
    this.status = ERROR_STATUS[errorCode];
  }

  body(requestId: string, authObjId?: string): Record<string, unknown> {
    return {
      error: this.errorCode,
      message: this.message,
      doc_url: errorDocUrl(this.errorCode),
      request_id: requestId,
      ...(authObjId ? { auth_obj_id: authObjId } : {}),
      ...this.extra,
    };
  }
}

const BEARER = { "WWW-Authenticate": 'Bearer realm="waybill"' };

export const errors = {
  invalidRequest: (details: FieldProblem[], message = "The request is not valid; see details.") =>
    new ApiError("INVALID_REQUEST", message, { details }),
  missingKey: () => new ApiError("MISSING_API_KEY", "Send your API key as 'Authorization: Bearer wbk_…'.", {}, BEARER),
  malformedKey: (problem = "The API key is not of the form wbk_ followed by 64 hex characters.") =>
    new ApiError("MALFORMED_API_KEY", problem, {}, BEARER),
  invalidKey: () =>
    new ApiError(
      "INVALID_API_KEY",
      "The API key is not valid.",
      {},
      { ...BEARER, "WWW-Authenticate": 'Bearer realm="waybill", error="invalid_token"' },
    ),
  revokedKey: () =>
    new ApiError(
      "REVOKED_API_KEY",
      "The API key was revoked; create a new one in the dashboard.",
      {},
      { ...BEARER, "WWW-Authenticate": 'Bearer realm="waybill", error="invalid_token"' },
    ),
  tierRequired: (required: Tier, current: Tier) =>
    new ApiError("TIER_REQUIRED", `This skill needs the ${required} tier; the account is on ${current}.`, {
      required_tier: required,
      current_tier: current,
      upgrade_url: "/pricing",
    }),
  alertLimitReached: (current: Tier, cap: number) =>
    new ApiError("ALERT_LIMIT_REACHED", `The ${current} tier keeps at most ${cap} alerts; delete one or upgrade.`, {
      limit: cap,
      current_tier: current,
      upgrade_url: "/pricing",
    }),
  scopeRequired: (required: string, keyScopes: readonly string[]) =>
    new ApiError("SCOPE_REQUIRED", `This key was not created with the '${required}' scope.`, {
      required_scope: required,
      key_scopes: keyScopes,
    }),
  notFound: (what = "No such resource.") => new ApiError("NOT_FOUND", what),
  operationRequired: (skill: string, requested: string, operations: readonly string[]) =>
    new ApiError(
      "NOT_FOUND",
      requested === skill
        ? `'${skill}' has several operations; invoke one of them: ${operations.join(", ")}.`
        : `'${skill}' has no operation '${requested}'; invoke one of: ${operations.join(", ")}.`,
      { operations },
    ),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new ApiError(
      "METHOD_NOT_ALLOWED",
      `${method} is not served here; use ${allowed.join(", ")}.`,
      { allowed },
      { Allow: allowed.join(", ") },
    ),
  idempotencyKeyReused: () =>
    new ApiError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used with a different request in the last 24 hours; use a new key for a new request.",
    ),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError("PAYLOAD_TOO_LARGE", `The request body is larger than ${limitBytes} bytes.`),
  unsupportedMediaType: () =>
    new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the request body as JSON with 'Content-Type: application/json'."),
  unresolvedLocation: (field: string, input: string, suggestions: string[], why?: string) =>
    new ApiError("UNRESOLVED_LOCATION", `Could not find a US place for ${field} '${input}'${why ? `: ${why}` : ""}.`, {
      field,
      input,
      suggestions,
    }),
  ambiguousLocation: (field: string, input: string, candidates: string[]) =>
    new ApiError(
      "AMBIGUOUS_LOCATION",
      `${field} '${input}' fits several US places of comparable size; add the state.`,
      {
        field,
        input,
        candidates,
      },
    ),
  notRoadConnected: (field: string, input: string, reason: string) =>
    new ApiError("NOT_ROAD_CONNECTED", `No truck can drive to ${field} '${input}': ${reason}.`, { field, input }),
  rateLimited: (window: "minute" | "month", limit: number, reset: number, retryAfter: number) =>
    new ApiError(
      "RATE_LIMITED",
      window === "minute"
        ? `More than ${limit} calls this minute for this key; retry after ${retryAfter} s.`
        : `The account's ${limit} answered calls for this month are used up; the quota resets on the 1st (UTC).`,
      { window, limit, remaining: 0, reset, retry_after: retryAfter },
      { "Retry-After": String(retryAfter) },
    ),
  internal: () => new ApiError("INTERNAL_ERROR", "Something went wrong on our side; the request was not answered."),
  serviceUnavailable: () =>
    new ApiError(
      "SERVICE_UNAVAILABLE",
      `The database cannot be reached right now; the request was not answered. Retry after ${UNAVAILABLE_RETRY_AFTER_S} s.`,
      { retry_after: UNAVAILABLE_RETRY_AFTER_S },
      { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_S) },
    ),
};

/** The PostgreSQL client's codes for a connection that could not be made or was lost. */
const CONNECTION_LOST =
  /^(ERR_POSTGRES_(CONNECTION_(CLOSED|FAILED|REFUSED|TIMEOUT)|IDLE_TIMEOUT|LIFETIME_TIMEOUT)|ECONNREFUSED|ECONNRESET|EPIPE)$/;
/** SQLSTATEs of a server shutting down, restarting, not yet accepting, out of connections, or a lost connection (08…). */
const SERVER_AWAY = /^(57P0[1-3]|53300|08...)$/;

/**
 * Whether `error` (or what it wraps: drizzle wraps the client's error as `cause`) says the database
 * cannot be reached right now, rather than that the request or the code is wrong: such a call is
 * refused with SERVICE_UNAVAILABLE and Retry-After, never INTERNAL_ERROR.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let at = error, depth = 0; at && typeof at === "object" && depth < 5; depth++) {
    const { code, errno } = at as { code?: unknown; errno?: unknown };
    if (CONNECTION_LOST.test(String(code ?? "")) || SERVER_AWAY.test(String(errno ?? ""))) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** The error table's row for anything thrown that is not a refusal: unreachable database or internal error. */
export function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return isDatabaseUnreachable(error) ? errors.serviceUnavailable() : errors.internal();
}

/** A configuration value or start-up condition the operator got wrong: printed as one line, and the process stops. */
export class ConfigError extends Error {}

/** Turn any thrown value into a response. Unknown errors become INTERNAL_ERROR (or SERVICE_UNAVAILABLE); nothing internal leaks. */
export function errorResponse(
  error: unknown,
  requestId: string,
  authObjId?: string,
  extraHeaders: Record<string, string> = {},
): Response {
  const apiError = apiErrorOf(error);
  return Response.json(apiError.body(requestId, authObjId), {
    status: apiError.status,
    headers: { ...apiError.headers, ...extraHeaders, "Cache-Control": "no-store", "X-Request-Id": requestId },
  });
}
