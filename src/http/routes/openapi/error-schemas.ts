import { Type, type TObject, type TSchema } from "@sinclair/typebox";
import { type ApiError, ERROR_STATUS, type ErrorCode, errors } from "../../../errors.ts";

/**
 * The error table as JSON Schemas, one per code: the shared envelope plus the code's own fields.
 * Written in TypeBox so a test can check real error bodies against them (test/http/openapi.test.ts).
 */
const envelope = {
  message: Type.String({ description: "What went wrong and what to do about it, in one or two sentences." }),
  doc_url: Type.String({
    description: "Where this error code is explained: its section of the server's /docs/errors page (relative URL).",
    examples: ["/docs/errors#TIER_REQUIRED"],
  }),
  request_id: Type.String({
    description: "This request's id (the X-Request-Id header): quote it when asking for help.",
  }),
  auth_obj_id: Type.Optional(
    Type.String({ description: "The key grant that made the call, once the key was recognised." }),
  ),
};

const EXTRA_FIELDS: Record<ErrorCode, Record<string, TSchema>> = {
  INVALID_REQUEST: {
    details: Type.Array(
      Type.Object({
        field: Type.String({ description: "The input field (or header, or `(body)`) the problem is about." }),
        problem: Type.String({ description: "What is wrong with it, as a plain sentence." }),
        allowed: Type.Optional(
          Type.Array(Type.String(), { description: "The values the field accepts, for enumerations." }),
        ),
      }),
      { description: "One entry per problem found." },
    ),
  },
  MISSING_API_KEY: {},
  MALFORMED_API_KEY: {},
  INVALID_API_KEY: {},
  REVOKED_API_KEY: {},
  TIER_REQUIRED: {
    required_tier: Type.String({ description: "The lowest tier that includes the skill." }),
    current_tier: Type.String({ description: "The account's tier." }),
    upgrade_url: Type.String({ description: "Where to compare tiers." }),
  },
  SCOPE_REQUIRED: {
    required_scope: Type.String({ description: "The scope the skill needs." }),
    key_scopes: Type.Array(Type.String(), { description: "The scopes the key was created with." }),
  },
  NOT_FOUND: {},
  METHOD_NOT_ALLOWED: {
    allowed: Type.Array(Type.String(), {
      description: "The methods this path is served under (also in the Allow header).",
    }),
  },
  PAYLOAD_TOO_LARGE: {},
  UNSUPPORTED_MEDIA_TYPE: {},
  UNRESOLVED_LOCATION: {
    field: Type.String({ description: "The input field that named the place." }),
    input: Type.String({ description: "The place as it was given." }),
    suggestions: Type.Array(Type.String(), { description: "The closest known places, best first." }),
  },
  AMBIGUOUS_LOCATION: {
    field: Type.String({ description: "The input field that named the place." }),
    input: Type.String({ description: "The place as it was given." }),
    candidates: Type.Array(Type.String(), { description: "The places it could mean; add the state to pick one." }),
  },
  NOT_ROAD_CONNECTED: {
    field: Type.String({ description: "The input field that named the place." }),
    input: Type.String({ description: "The place as it was given." }),
  },
  IDEMPOTENCY_KEY_REUSED: {},
  RATE_LIMITED: {
    window: Type.Union([Type.Literal("minute"), Type.Literal("month")], {
      description: "Which limit refused the call.",
    }),
    limit: Type.Integer({ description: "The limit of that window." }),
    remaining: Type.Integer({ description: "Calls left in that window (0)." }),
    reset: Type.Integer({ description: "Unix epoch seconds when the window resets." }),
    retry_after: Type.Integer({ description: "Seconds to wait before retrying (also the Retry-After header)." }),
  },
  ALERT_LIMIT_REACHED: {
    limit: Type.Integer({ description: "How many alerts the account's tier keeps." }),
    current_tier: Type.String({ description: "The account's tier." }),
    upgrade_url: Type.String({ description: "Where to compare tiers." }),
  },
  INTERNAL_ERROR: {},
  SERVICE_UNAVAILABLE: {
    retry_after: Type.Integer({ description: "Seconds to wait before retrying (also in the Retry-After header)." }),
  },
};

/** One real refusal per code, built by the same factories the server uses: the document's examples. */
const EXAMPLES: Record<ErrorCode, ApiError> = {
  INVALID_REQUEST: errors.invalidRequest([
    { field: "equipment", problem: "must be one of the allowed values", allowed: ["DRY_VAN", "REEFER", "FLATBED"] },
  ]),
  MISSING_API_KEY: errors.missingKey(),
  MALFORMED_API_KEY: errors.malformedKey(),
  INVALID_API_KEY: errors.invalidKey(),
  REVOKED_API_KEY: errors.revokedKey(),
  TIER_REQUIRED: errors.tierRequired("professional", "explorer"),
  SCOPE_REQUIRED: errors.scopeRequired("fuel-surcharge", ["rate-lookup"]),
  NOT_FOUND: errors.notFound("No receipt with that id exists for this account."),
  METHOD_NOT_ALLOWED: errors.methodNotAllowed("GET", ["OPTIONS", "POST"]),
  PAYLOAD_TOO_LARGE: errors.payloadTooLarge(65536),
  UNSUPPORTED_MEDIA_TYPE: errors.unsupportedMediaType(),
  UNRESOLVED_LOCATION: errors.unresolvedLocation("origin", "Chicgo, IK", ["Chicago, IL", "Chico, CA"]),
  AMBIGUOUS_LOCATION: errors.ambiguousLocation("origin", "Springfield", [
    "Springfield, IL",
    "Springfield, MO",
    "Springfield, MA",
  ]),
  NOT_ROAD_CONNECTED: errors.notRoadConnected(
    "destination",
    "Honolulu, HI",
    "it is not on the North American road network",
  ),
  IDEMPOTENCY_KEY_REUSED: errors.idempotencyKeyReused(),
  RATE_LIMITED: errors.rateLimited("minute", 10, 1792065780, 42),
  ALERT_LIMIT_REACHED: errors.alertLimitReached("starter", 10),
  INTERNAL_ERROR: errors.internal(),
  SERVICE_UNAVAILABLE: errors.serviceUnavailable(),
};

const EXAMPLE_REQUEST_ID = "req_01JD2ZQ8W6Y3K7M1N4P5R8T0VX";
const EXAMPLE_AUTH_OBJ_ID = "auth_obj_01JD2ZP1C4F7H9K2M5Q8S0V3XZ";

/** A body the server really sends for this code (401s before a key was recognised carry no auth_obj_id). */
export function errorExample(code: ErrorCode): Record<string, unknown> {
  const unauthenticated = ERROR_STATUS[code] === 401;
  return EXAMPLES[code].body(EXAMPLE_REQUEST_ID, unauthenticated ? undefined : EXAMPLE_AUTH_OBJ_ID);
}

const pascal = (code: string) =>
  code
    .toLowerCase()
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

/** `TierRequiredError` for TIER_REQUIRED: the component name of a code's schema. */
export const errorSchemaName = (code: ErrorCode) => `${pascal(code)}Error`;

export function errorSchema(code: ErrorCode): TObject {
  return Type.Object(
    {
      error: Type.Literal(code, { description: "The error code (the error table's UPPER_SNAKE name)." }),
      ...envelope,
      ...EXTRA_FIELDS[code],
    },
    { description: `${ERROR_STATUS[code]} ${code}` },
  );
}

/** The codes answered with each status, in table order. */
export function codesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return byStatus;
}
