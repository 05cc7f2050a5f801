import { type TObject, Type, type TSchema } from "@sinclair/typebox";
import { EVENT_TYPES } from "../../../events/types.ts";

/**
 * The routes that are not skills, documented where the OpenAPI document is built. A route added
 * elsewhere may instead carry Elysia's `detail` (summary, description, tags, responses) on its own
 * definition; a route with neither is listed by the completeness test (test/http/openapi.test.ts).
 */
export interface RouteDoc {
  summary: string;
  description: string;
  tag: "account" | "receipts" | "operations" | "mcp";
  /** Needs the bearer key. */
  authenticated: boolean;
  response: { description: string; schema: TSchema; example: unknown };
  /** Query string parameters, each field described. */
  query?: TObject;
  /** A JSON request body (MCP's JSON-RPC message). */
  requestBody?: { description: string; schema: TSchema; example: unknown };
  /** Statuses of the error table this route can answer with, besides 401 for authenticated routes. */
  errors: number[];
}

const usageSchema = Type.Object({
  month: Type.String({ description: "The UTC month reported, YYYY-MM." }),
  period_start: Type.Integer({ description: "Unix epoch seconds of 00:00 UTC on the 1st of the month." }),
  reset: Type.Integer({ description: "Unix epoch seconds when the monthly quota resets (the 1st of next month)." }),
  quota: Type.Object(
    {
      per_month: Type.Integer({ description: "Answered calls the tier allows per month." }),
      per_minute: Type.Integer({ description: "Calls the tier allows per minute and key." }),
      used: Type.Integer({ description: "Answered calls this month: the figure the quota enforces." }),
      remaining: Type.Integer({ description: "Answered calls left this month." }),
    },
    { description: "The monthly quota and where the account stands." },
  ),
  totals: Type.Object(
    {
      answered: Type.Integer({ description: "Answered calls this month, all skills." }),
      refused: Type.Integer({ description: "Refused calls this month, all skills (not counted toward the quota)." }),
    },
    { description: "This month's calls by outcome." },
  ),
  skills: Type.Array(
    Type.Object({
      skill: Type.String({ description: "Skill name." }),
      answered: Type.Integer({ description: "Answered calls of this skill this month." }),
      refused: Type.Integer({ description: "Refused calls of this skill this month." }),
    }),
    { description: "Calls this month per skill called." },
  ),
  minute: Type.Object(
    {
      limit: Type.Integer({ description: "Calls per minute for this key." }),
      remaining: Type.Integer({ description: "Calls left in the current minute window." }),
      reset: Type.Integer({ description: "Unix epoch seconds when the minute window resets." }),
    },
    { description: "This key's minute window." },
  ),
  auth_obj_id: Type.String({ description: "The key grant that made the call." }),
});

const skillListSchema = Type.Object({
  skills: Type.Array(
    Type.Object({
      name: Type.String({ description: "Skill name, which is also the scope a key needs." }),
      scope: Type.String({ description: "The scope a key needs to call it." }),
      minimum_tier: Type.String({ description: "The lowest tier that includes it." }),
      description: Type.String({ description: "What it answers." }),
      method: Type.String({ description: "HTTP method of its REST route." }),
      path: Type.String({ description: "Its REST route." }),
      invoke_path: Type.String({ description: "The same skill as POST with the input as JSON body." }),
      batch_path: Type.Optional(
        Type.String({ description: "rate-lookup only: where a bid sheet of many lanes is priced in the background." }),
      ),
      available_to_this_key: Type.Boolean({ description: "Whether this key may call it (tier and scopes)." }),
      input_schema: Type.Object({}, { additionalProperties: true, description: "JSON Schema of its input." }),
    }),
    { description: "Every skill this instance serves." },
  ),
  auth_obj_id: Type.String({ description: "The key grant that made the call." }),
});

const publishedKey = {
  kid: Type.String({ description: "Key id: the first 16 hex characters of SHA-256 over the raw public key." }),
  algorithm: Type.String({ description: "Signature algorithm (Ed25519)." }),
  public_key: Type.String({ description: "The raw 32-byte public key, base64url." }),
  jwk: Type.Object(
    {
      kty: Type.String({ description: "Key type (OKP)." }),
      crv: Type.String({ description: "Curve (Ed25519)." }),
      x: Type.String({ description: "The public key, base64url." }),
      kid: Type.String({ description: "Key id." }),
      alg: Type.String({ description: "Algorithm (EdDSA)." }),
      use: Type.String({ description: "Intended use (sig)." }),
    },
    { description: "The same key as a JSON Web Key." },
  ),
  created_at: Type.String({ description: "When the key was generated (ISO 8601)." }),
};

const publicKeySchema = Type.Object(
  {
    ...publishedKey,
    keys: Type.Array(Type.Object(publishedKey), {
      description: "Every key that ever signed receipts on this instance.",
    }),
    receipt_format: Type.Object(
      {
        version: Type.String({ description: "Receipt body format." }),
        canonicalization: Type.String({ description: "How the body is serialized before hashing and signing." }),
        hash: Type.String({ description: "How `hash` is computed." }),
        signature: Type.String({ description: "How `signature` is computed." }),
        key_id: Type.String({ description: "How `kid` is derived." }),
        genesis_prev_hash: Type.String({ description: "`prev_hash` of the first receipt." }),
      },
      { description: "How to verify a receipt with this key." },
    ),
  },
  { description: "The current signing key, and every earlier one." },
);

const jsonRpc = Type.Object(
  {
    jsonrpc: Type.Literal("2.0", { description: "JSON-RPC version." }),
    id: Type.Union([Type.Integer(), Type.String()], { description: "Request id, echoed in the response." }),
    method: Type.Optional(Type.String({ description: "MCP method: initialize, tools/list, tools/call…" })),
    params: Type.Optional(Type.Object({}, { additionalProperties: true, description: "Method parameters." })),
    result: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: "The method's result (responses)." }),
    ),
  },
  { description: "A JSON-RPC 2.0 message of the Model Context Protocol." },
);

const size = (description: string) => Type.Integer({ minimum: 0, description });
const proofHashes = Type.Array(Type.String({ description: "A node hash, base64." }), {
  description: "The RFC 6962 proof, base64 node hashes.",
});

const eventsSchema = Type.Object({
  events: Type.Array(
    Type.Object({
      id: Type.String({ description: "The event's id (`evt_…`), also the webhook's message id." }),
      type: Type.String({ description: `What happened: ${EVENT_TYPES.join(", ")}.` }),
      created_at: Type.String({ description: "When it happened (ISO 8601)." }),
      data: Type.Object(
        {},
        {
          additionalProperties: true,
          description: "The event's payload, as its webhook delivers it (docs/alerts-and-webhooks.md).",
        },
      ),
    }),
    { description: "The account's events after the cursor, oldest first." },
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: "Pass as `after` for the next page; null when there are no events yet.",
  }),
  auth_obj_id: Type.String({ description: "The key grant that made the call." }),
});

const EXAMPLE_AUTH_OBJ_ID = "auth_obj_01JD2ZP1C4F7H9K2M5Q8S0V3XZ";

/** Keyed `METHOD path` as the route table writes them (Elysia's `:param` form). */
export const ROUTE_DOCS: Record<string, RouteDoc> = {
  "GET /v1/usage": {
    summary: "Usage this month",
    description:
      "The calling account's month to date (answered and refused calls, by skill) and the key's minute headroom. Not metered.",
    tag: "account",
    authenticated: true,
    errors: [],
    response: {
      description: "The account's month to date.",
      schema: usageSchema,
      example: {
        month: "2026-10",
        period_start: 1790812800,
        reset: 1793491200,
        quota: { per_month: 2000, per_minute: 10, used: 42, remaining: 1958 },
        totals: { answered: 42, refused: 3 },
        skills: [{ skill: "rate-lookup", answered: 42, refused: 3 }],
        minute: { limit: 10, remaining: 9, reset: 1792065780 },
        auth_obj_id: EXAMPLE_AUTH_OBJ_ID,
      },
    },
  },
  "GET /v1/skills": {
    summary: "List skills",
    description:
      "Every skill this instance serves, its tier and scope, its input schema, and whether this key may call it. Not metered.",
    tag: "account",
    authenticated: true,
    errors: [],
    response: {
      description: "The skills.",
      schema: skillListSchema,
      example: {
        skills: [
          {
            name: "rate-lookup",
            scope: "rate-lookup",
            minimum_tier: "explorer",
            description: "Cost-basis truckload rate for a lane.",
            method: "POST",
            path: "/v1/rates/lookup",
            invoke_path: "/v1/agent/invoke/rate-lookup",
            available_to_this_key: true,
            input_schema: { type: "object" },
          },
        ],
        auth_obj_id: EXAMPLE_AUTH_OBJ_ID,
      },
    },
  },
  "GET /v1/receipts/public-key": {
    summary: "Receipt public key",
    description: "The Ed25519 public keys that sign this instance's receipts, and how to verify one. No key needed.",
    tag: "receipts",
    authenticated: false,
    errors: [],
    response: {
      description: "The signing keys.",
      schema: publicKeySchema,
      example: {
        kid: "3f9a1c0b7d2e4a68",
        algorithm: "Ed25519",
        public_key: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
        jwk: {
          kty: "OKP",
          crv: "Ed25519",
          x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
          kid: "3f9a1c0b7d2e4a68",
          alg: "EdDSA",
          use: "sig",
        },
        created_at: "2026-10-01T00:00:00.000Z",
        keys: [],
        receipt_format: {
          version: "waybill.receipt/2",
          canonicalization: "RFC 8785 (JCS)",
          hash: "lowercase hex SHA-256 of the UTF-8 canonical JSON of the receipt body",
          signature: "base64url Ed25519 signature over the same UTF-8 canonical JSON bytes",
          key_id: "first 16 hex characters of SHA-256 over the raw 32-byte public key",
          genesis_prev_hash: "0".repeat(64),
        },
      },
    },
  },
  "GET /v1/events": {
    summary: "List events",
    description:
      "The account's events (key.created, data.updated, alert.triggered…), oldest first after a cursor: the same records webhooks deliver, " +
      "for clients without a webhook. Any valid key of the account reads them. Not metered.",
    tag: "account",
    authenticated: true,
    errors: [400],
    query: Type.Object({
      after: Type.Optional(
        Type.String({ description: "The `next_cursor` of the previous page; omit for the oldest events." }),
      ),
      type: Type.Optional(
        Type.String({ description: `Only these event types, comma-separated: ${EVENT_TYPES.join(", ")}.` }),
      ),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 500,
          default: 100,
          description: "Events per page, 1 to 500 (default 100).",
        }),
      ),
    }),
    response: {
      description: "A page of events.",
      schema: eventsSchema,
      example: {
        events: [
          {
            id: "evt_01JD2ZR3F6H8K1M4P7R9T2W5Y8",
            type: "alert.triggered",
            created_at: "2026-10-14T15:02:11.000Z",
            data: { alert_id: "alrt_01JD2ZQZ1B4D6G9J2L5N8Q0S3V", threshold: 4.25, measurement: { value: 4.31 } },
          },
        ],
        next_cursor: "evt_01JD2ZR3F6H8K1M4P7R9T2W5Y8",
        auth_obj_id: EXAMPLE_AUTH_OBJ_ID,
      },
    },
  },
  "GET /v1/log/inclusion": {
    summary: "Inclusion proof",
    description:
      "Proves that the receipt at `index` (an answer's `log_index`) is a leaf of the transparency log of `tree_size`, " +
      "against that size's signed checkpoint (docs/receipts.md). No key needed.",
    tag: "receipts",
    authenticated: false,
    errors: [400],
    query: Type.Object({
      index: size("The leaf index: an answer's `log_index`."),
      tree_size: Type.Optional(size("The tree size to prove against; defaults to the latest checkpoint's.")),
    }),
    response: {
      description: "The inclusion proof.",
      schema: Type.Object({
        log_index: size("The leaf proved."),
        tree_size: size("The tree size it is proved against."),
        hashes: proofHashes,
      }),
      example: {
        log_index: 41,
        tree_size: 128,
        hashes: ["q2kS0v6D3cV9mN1bJ8pR4tW7yA0eH5uL2xK6fG9iC3o=", "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5Pw=="],
      },
    },
  },
  "GET /v1/log/consistency": {
    summary: "Consistency proof",
    description:
      "Proves that the log of size `to` extends the log of size `from` without changing it: a verifier that trusted the older checkpoint " +
      "can trust the newer one (docs/receipts.md). No key needed.",
    tag: "receipts",
    authenticated: false,
    errors: [400],
    query: Type.Object({
      from: size("The older tree size."),
      to: Type.Optional(size("The newer tree size; defaults to the latest checkpoint's.")),
    }),
    response: {
      description: "The consistency proof.",
      schema: Type.Object({
        from: size("The older tree size."),
        to: size("The newer tree size."),
        hashes: proofHashes,
      }),
      example: { from: 100, to: 128, hashes: ["q2kS0v6D3cV9mN1bJ8pR4tW7yA0eH5uL2xK6fG9iC3o="] },
    },
  },
  "GET /healthz": {
    summary: "Liveness",
    description: "200 while the process answers. No key needed.",
    tag: "operations",
    authenticated: false,
    errors: [],
    response: {
      description: "The process is up.",
      schema: Type.Object({ status: Type.Literal("ok", { description: "Always ok." }) }),
      example: { status: "ok" },
    },
  },
  "GET /readyz": {
    summary: "Readiness",
    description:
      "200 when the database takes writes and reference data is loaded; 503 with the same body otherwise. No key needed.",
    tag: "operations",
    authenticated: false,
    errors: [],
    response: {
      description: "Ready (503 when not).",
      schema: Type.Object({
        status: Type.Union([Type.Literal("ready"), Type.Literal("not_ready")], { description: "Overall readiness." }),
        checks: Type.Object(
          {
            database_writable: Type.Boolean({ description: "The database file takes a write lock." }),
            reference_data_loaded: Type.Boolean({ description: "Reference data is loaded." }),
          },
          { description: "Each check." },
        ),
      }),
      example: { status: "ready", checks: { database_writable: true, reference_data_loaded: true } },
    },
  },
  "ALL /mcp": {
    summary: "MCP endpoint",
    description:
      "Model Context Protocol over Streamable HTTP, stateless, JSON responses. One tool per skill the key may call; a tool call is a skill call " +
      "(same limits, a receipt). Send `Accept: application/json, text/event-stream`.",
    tag: "mcp",
    authenticated: true,
    errors: [],
    requestBody: {
      description: "A JSON-RPC 2.0 request.",
      schema: jsonRpc,
      example: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    },
    response: {
      description: "The JSON-RPC 2.0 response.",
      schema: jsonRpc,
      example: {
        jsonrpc: "2.0",
        id: 1,
        result: { tools: [{ name: "rate-lookup", description: "Cost-basis truckload rate for a lane." }] },
      },
    },
  },
};
