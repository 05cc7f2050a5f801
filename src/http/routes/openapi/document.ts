import { VERSION } from "../../../version.ts";
import { ERROR_STATUS, type ErrorCode } from "../../../errors.ts";
import { toolName } from "../../../skills/call-names.ts";
import { type AnySkill, callName } from "../../../skills/types.ts";
import type { RouteEntry } from "../../pipeline/allowed-methods.ts";
import { codesByStatus, errorExample, errorSchema, errorSchemaName } from "./error-schemas.ts";
import { exampleOf } from "./examples.ts";
import { describeFields } from "./field-glossary.ts";
import { ROUTE_DOCS, type RouteDoc } from "./route-docs.ts";

type Json = Record<string, unknown>;

export interface DocumentSource {
  skills: readonly AnySkill[];
  /** The app's route table: every /v1 route, /mcp and the probes are documented from it. */
  routes: readonly (RouteEntry & { hooks?: { detail?: Json } })[];
  /** Where callers reach the API (the `servers` entry). */
  serverUrl: string;
  /** A real answer of the skill to the example input, or undefined when it cannot be computed here. */
  answerExample?(skill: AnySkill, input: unknown): unknown;
}

/** Routes the OpenAPI document covers: the API, MCP and the probes (not the dashboard, docs or metrics). */
export const isDocumentedRoute = (path: string) =>
  path.startsWith("/v1/") || path === "/mcp" || path === "/healthz" || path === "/readyz";

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
/** TypeBox schemas are JSON Schema already; JSON round-tripping drops TypeBox's symbol markers. */
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}");
const pascal = (name: string) => name.replace(/(^|[-_.])([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
/** `/v1/alerts/:id` → ["id"]: path segments that are input fields. */
const pathParamsOf = (path: string) => (path.match(/:[A-Za-z_]+/g) ?? []).map((segment) => segment.slice(1));
/** Component schema names are per call name: each operation of rate-alerts has its own answer. */
const schemaName = (skill: AnySkill) => `${pascal(callName(skill))}Answer`;

/**
 * A skill's input as its request body states it: inline, never a component. Generators such as
 * openapi-typescript (default flags) make a component's defaulted fields required, which is right
 * for answers (always sent) and wrong for inputs (optional to send); inside a request body they stay
 * optional.
 */
function inputSchema(skill: AnySkill): Json & ObjectSchema {
  const input = plain(skill.input);
  describeFields(input);
  return { ...input, description: (input.description as string | undefined) ?? `Input of ${callName(skill)}.` };
}

type ObjectSchema = { properties?: Record<string, Json>; required?: string[] };
/** Each named field of an object schema as a parameter (query string or path). */
const parametersOf = (schema: ObjectSchema, fields: readonly string[], where: "query" | "path"): Json[] =>
  fields.map((field) => {
    const property = schema.properties?.[field] ?? {};
    return {
      name: field,
      in: where,
      required: where === "path" || (schema.required?.includes(field) ?? false),
      description: (property.description as string | undefined) ?? field,
      schema: property,
      example: exampleOf(property),
    };
  });
/** The schema without the given fields (a body without its path parameters). */
const without = (schema: Json & ObjectSchema, fields: readonly string[]): Json => ({
  ...schema,
  properties: Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([field]) => !fields.includes(field))),
  ...(schema.required ? { required: schema.required.filter((field) => !fields.includes(field)) } : {}),
});
const omitKeys = (value: unknown, fields: readonly string[]) =>
  value && typeof value === "object"
    ? Object.fromEntries(Object.entries(value).filter(([field]) => !fields.includes(field)))
    : value;

const STATUS_RESPONSE_NAMES: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  405: "MethodNotAllowed",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
  422: "UnprocessableContent",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
};

const HEADERS: Record<string, Json> = {
  "X-Request-Id": {
    description: "This request's id: the caller's own X-Request-Id when well formed, otherwise a new `req_` id.",
    schema: { type: "string", description: "A correlation id." },
    example: "req_01JD2ZQ8W6Y3K7M1N4P5R8T0VX",
  },
  "X-RateLimit-Limit": {
    description: "Calls per minute for this key.",
    schema: { type: "integer", description: "A count." },
    example: 10,
  },
  "X-RateLimit-Remaining": {
    description: "Calls left in the key's current minute window.",
    schema: { type: "integer", description: "A count." },
    example: 9,
  },
  "X-RateLimit-Reset": {
    description: "Unix epoch seconds when the minute window resets.",
    schema: { type: "integer", description: "Epoch seconds." },
    example: 1792065780,
  },
  "Retry-After": {
    description: "Seconds to wait before retrying.",
    schema: { type: "integer", description: "Seconds." },
    example: 42,
  },
  "WWW-Authenticate": {
    description: "The bearer challenge.",
    schema: { type: "string", description: "RFC 6750 challenge." },
    example: 'Bearer realm="waybill"',
  },
  "Idempotency-Replayed": {
    description: "`true` when this is the stored answer to an earlier call with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"], description: "Present only on replays." },
    example: "true",
  },
};
const headerName = (name: string) => name.replace(/-/g, "");

const RATE_LIMIT_HEADERS = {
  "X-Request-Id": ref("headers", "XRequestId"),
  "X-RateLimit-Limit": ref("headers", "XRateLimitLimit"),
  "X-RateLimit-Remaining": ref("headers", "XRateLimitRemaining"),
  "X-RateLimit-Reset": ref("headers", "XRateLimitReset"),
};

/** Refusals a skill call can give once its key was recognised: metered, so they carry the key's minute window. */
const METERED_STATUSES = new Set([400, 403, 404, 409, 413, 415, 422, 429, 500]);
const responseName = (status: number) => STATUS_RESPONSE_NAMES[status] ?? `Status${status}`;
/** A metered refusal's response component; 429 is metered by nature and has no twin. */
const meteredName = (status: number) =>
  METERED_STATUSES.has(status) && status !== 429 ? `Metered${responseName(status)}` : responseName(status);

/**
 * One response per status, and for a skill call's refusals a metered twin that also declares the
 * limit headers (docs/api.md, "Limits"). Only skill calls are limited, so 429 always has them and
 * `Retry-After`.
 */
function errorResponses(): Json {
  const responses: Json = {};
  for (const [status, codes] of codesByStatus()) {
    const schemas = codes.map((code) => ref("schemas", errorSchemaName(code)));
    const extraHeaders: Json =
      status === 401
        ? { "WWW-Authenticate": ref("headers", "WWWAuthenticate") }
        : status === 429
          ? { ...RATE_LIMIT_HEADERS, "Retry-After": ref("headers", "RetryAfter") }
          : status === 503
            ? { "Retry-After": ref("headers", "RetryAfter") }
            : {};
    const response = {
      description: codes.join(" or "),
      headers: { "X-Request-Id": ref("headers", "XRequestId"), ...extraHeaders },
      content: {
        "application/json": {
          schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas },
          examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: errorExample(code) }])),
        },
      },
    };
    responses[responseName(status)] = response;
    if (METERED_STATUSES.has(status) && status !== 429)
      responses[meteredName(status)] = {
        ...response,
        description: `${response.description}, with the key's limit headers`,
        headers: { ...response.headers, ...RATE_LIMIT_HEADERS },
      };
  }
  return responses;
}

/** The refusals an operation can give; every path answers another method with 405. A skill call's are metered. */
const errorRefs = (statuses: readonly number[], metered = false): Json =>
  Object.fromEntries(
    [...new Set([...statuses, 405])]
      .sort()
      .map((status) => [String(status), ref("responses", metered ? meteredName(status) : responseName(status))]),
  );

/** The answer as sent: the skill's output plus the envelope (receipt_id, log_index, auth_obj_id), on every object form of it. */
function answerSchema(output: Json): Json {
  const members = (output.anyOf ?? output.oneOf) as Json[] | undefined;
  if (members)
    return {
      ...output,
      ...(output.anyOf ? { anyOf: members.map(answerSchema) } : { oneOf: members.map(answerSchema) }),
    };
  return {
    ...output,
    properties: {
      ...(output.properties as Json),
      receipt_id: {
        type: "string",
        description: "The signed receipt of this answer (see GET /v1/reports/audit).",
        examples: ["rcpt_01JD2ZQ8W6Y3K7M1N4P5R8T0VX"],
      },
      log_index: {
        type: "integer",
        minimum: 0,
        description: "The receipt's leaf index in the transparency log; GET /v1/log/inclusion?index= proves it.",
        examples: [41],
      },
      auth_obj_id: {
        type: "string",
        description: "The key grant that made the call.",
        examples: ["auth_obj_01JD2ZP1C4F7H9K2M5Q8S0V3XZ"],
      },
    },
    required: [...new Set([...((output.required as string[]) ?? []), "receipt_id", "log_index", "auth_obj_id"])],
  };
}

/** An alert id that is not the caller's is a 404; creating past the tier's cap is 409 ALERT_LIMIT_REACHED. */
function skillErrors(skill: AnySkill, withBody: boolean): number[] {
  const notFound = skill.name === "audit-report" || pathParamsOf(skill.rest.path).length > 0;
  const conflict = callName(skill) === "rate-alerts.create";
  return [
    400,
    401,
    403,
    422,
    429,
    500,
    503,
    ...(withBody ? [413, 415] : []),
    ...(notFound ? [404] : []),
    ...(conflict ? [409] : []),
  ];
}

/** A skill with the input and answer its documentation shows. */
interface SkillExample {
  skill: AnySkill;
  example: { input: unknown; answer: unknown };
}

function skillOperation({ skill, example }: SkillExample): Json {
  const input = inputSchema(skill);
  const name = callName(skill);
  const pathParams = pathParamsOf(skill.rest.path);
  // GET and DELETE read their input from the query string; the others from the body. Path segments are input fields too.
  const inQuery = skill.rest.method === "GET" || skill.rest.method === "DELETE";
  const queryFields = inQuery ? Object.keys(input.properties ?? {}).filter((field) => !pathParams.includes(field)) : [];
  return {
    operationId: name,
    summary: name,
    description:
      `${skill.description}\n\nMinimum tier **${skill.minimumTier}**; the key needs the scope \`${skill.name}\`. ` +
      `Also callable as \`POST /v1/agent/invoke/${name}\` and as the MCP tool \`${toolName(skill)}\`. Every answer is metered and carries a signed receipt.`,
    tags: ["skills"],
    "x-minimum-tier": skill.minimumTier,
    "x-scope": skill.name,
    security: [{ bearer: [] }],
    parameters: [
      ...parametersOf(input, pathParams, "path"),
      ...parametersOf(input, queryFields, "query"),
      ref("parameters", "RequestId"),
      ...(inQuery ? [] : [ref("parameters", "IdempotencyKey")]),
    ],
    ...(inQuery
      ? {}
      : {
          requestBody: {
            required: true,
            description: `The ${name} input${pathParams.length > 0 ? ` (${pathParams.join(", ")} from the path)` : ""}.`,
            content: {
              "application/json": {
                schema: pathParams.length > 0 ? without(input, pathParams) : input,
                example: omitKeys(example.input, pathParams),
              },
            },
          },
        }),
    responses: {
      "200": {
        description: "Answered, with receipt_id, log_index and auth_obj_id.",
        headers: {
          ...RATE_LIMIT_HEADERS,
          ...(inQuery ? {} : { "Idempotency-Replayed": ref("headers", "IdempotencyReplayed") }),
        },
        content: {
          "application/json": { schema: ref("schemas", schemaName(skill)), example: example.answer },
        },
      },
      ...errorRefs(skillErrors(skill, !inQuery), true),
    },
  };
}

function invokeOperation(skills: readonly AnySkill[], examples: readonly SkillExample[]): Json {
  return {
    operationId: "invoke-skill",
    summary: "Invoke any skill",
    description:
      "Calls the named skill with its input as the JSON body, whatever the method of its REST route: the same gate, limits and receipt. " +
      "Agents can call every skill through this one route.",
    tags: ["skills"],
    security: [{ bearer: [] }],
    parameters: [
      {
        name: "skill",
        in: "path",
        required: true,
        description:
          "The skill's name, or `skill.operation` for one operation of a skill with several (`rate-alerts.create`; the MCP spelling `rate-alerts_create` works too). " +
          "A skill with several operations named without a known one is gated like its operations (401, 403), then answered 404 with the `operations` to call.",
        schema: { type: "string", enum: skills.map(callName), description: "A call name." },
        example: skills[0] && callName(skills[0]),
      },
      ref("parameters", "RequestId"),
      ref("parameters", "IdempotencyKey"),
    ],
    requestBody: {
      required: true,
      description: "The skill's input.",
      content: {
        "application/json": {
          // anyOf: inputs of different skills may share a shape; the path names which one applies.
          schema: { anyOf: skills.map((skill) => ({ title: callName(skill), ...inputSchema(skill) })) },
          examples: Object.fromEntries(
            examples.map(({ skill, example }) => [callName(skill), { summary: callName(skill), value: example.input }]),
          ),
        },
      },
    },
    responses: {
      "200": {
        description: "Answered, with receipt_id, log_index and auth_obj_id.",
        headers: { ...RATE_LIMIT_HEADERS, "Idempotency-Replayed": ref("headers", "IdempotencyReplayed") },
        content: {
          "application/json": {
            schema: { anyOf: skills.map((skill) => ref("schemas", schemaName(skill))) },
            examples: Object.fromEntries(
              examples.map(({ skill, example }) => [
                callName(skill),
                { summary: callName(skill), value: example.answer },
              ]),
            ),
          },
        },
      },
      ...errorRefs([400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503], true),
    },
  };
}

function documentedOperation(method: string, doc: RouteDoc): Json {
  const operationId = `${method.toLowerCase()}-${doc.summary.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return {
    operationId,
    summary: doc.summary,
    description: doc.description,
    tags: [doc.tag],
    security: doc.authenticated ? [{ bearer: [] }] : [],
    parameters: [
      ...(doc.query ? parametersOf(plain(doc.query), Object.keys(doc.query.properties), "query") : []),
      ref("parameters", "RequestId"),
    ],
    ...(doc.requestBody
      ? {
          requestBody: {
            required: true,
            description: doc.requestBody.description,
            content: {
              "application/json": { schema: plain(doc.requestBody.schema), example: doc.requestBody.example },
            },
          },
        }
      : {}),
    responses: {
      "200": {
        description: doc.response.description,
        headers: { "X-Request-Id": ref("headers", "XRequestId") },
        content: { "application/json": { schema: plain(doc.response.schema), example: doc.response.example } },
      },
      ...errorRefs([...(doc.authenticated ? [401] : []), ...doc.errors, 500, 503]),
    },
  };
}

/** A route declared elsewhere with Elysia's `detail`: its own words, the shared envelope around them. */
function detailOperation(method: string, path: string, detail: Json): Json {
  return {
    operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+/g, "-")}`,
    tags: ["account"],
    security: [{ bearer: [] }],
    parameters: [ref("parameters", "RequestId")],
    ...detail,
    responses: { ...errorRefs([401, 500, 503]), ...(detail.responses as Json | undefined) },
  };
}

/** The Idempotency-Key the document shows; the /docs console replaces it with a fresh key on every send. */
export const IDEMPOTENCY_KEY_EXAMPLE = "5f1c8e2a-3b7d-4c9e-8a1f-0d2b4c6e8f10";

/** The OpenAPI 3.1 document, generated from the skill declarations and the route table. */
export function openApiDocument(source: DocumentSource): Json {
  const { skills } = source;
  const schemas: Json = {};
  const examples: SkillExample[] = [];
  for (const skill of skills) {
    const input = inputSchema(skill);
    const answer = answerSchema(plain(skill.output));
    describeFields(answer);
    schemas[schemaName(skill)] = {
      ...answer,
      description: (answer.description as string | undefined) ?? `Answer of ${callName(skill)}.`,
    };
    const exampleInput = exampleOf(input);
    const computed = source.answerExample?.(skill, exampleInput);
    examples.push({ skill, example: { input: exampleInput, answer: computed ?? exampleOf(answer) } });
  }
  for (const code of Object.keys(ERROR_STATUS) as ErrorCode[])
    schemas[errorSchemaName(code)] = plain(errorSchema(code));

  const paths: Record<string, Json> = {};
  const add = (method: string, path: string, operation: Json) => {
    const key = openApiPath(path);
    paths[key] = { ...paths[key], [method.toLowerCase()]: operation };
  };
  const skillByRoute = new Map(examples.map((entry) => [`${entry.skill.rest.method} ${entry.skill.rest.path}`, entry]));
  for (const route of source.routes) {
    if (!isDocumentedRoute(route.path)) continue;
    const key = `${route.method} ${route.path}`;
    const skill = skillByRoute.get(key);
    const method = route.method === "ALL" ? "POST" : route.method;
    if (skill) add(method, route.path, skillOperation(skill));
    else if (key === "POST /v1/agent/invoke/:skill") add(method, route.path, invokeOperation(skills, examples));
    else if (ROUTE_DOCS[key]) add(method, route.path, documentedOperation(method, ROUTE_DOCS[key]));
    else if (route.hooks?.detail && Object.keys(route.hooks.detail).length > 0)
      add(method, route.path, detailOperation(method, route.path, route.hooks.detail));
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Waybill",
      version: VERSION,
      description:
        "Cost-basis truckload rates from public US data, gated by tier and key scopes, metered per minute and month, and proven by " +
        "receipts in a signed transparency log. Guides: [/docs/agents.md](/docs/agents.md) and [/llms.txt](/llms.txt).",
      license: { name: "Proprietary; self-hosted", identifier: "LicenseRef-Waybill" },
    },
    servers: [{ url: source.serverUrl, description: "This instance." }],
    security: [{ bearer: [] }],
    tags: [
      {
        name: "skills",
        description: "Metered questions with signed answers: one operation per skill, and one to invoke any of them.",
      },
      { name: "account", description: "The calling key's skills and usage. Not metered." },
      { name: "receipts", description: "What a verifier needs." },
      { name: "mcp", description: "The same skills as Model Context Protocol tools." },
      { name: "operations", description: "Probes for orchestrators." },
    ],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An API key: `wbk_`, 56 hex characters and an 8-hex checksum.",
        },
      },
      schemas,
      responses: errorResponses(),
      headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [headerName(name), header])),
      parameters: {
        RequestId: {
          name: "X-Request-Id",
          in: "header",
          required: false,
          description:
            "Your own correlation id (letters, digits, `._:-`, up to 128); echoed back and used in our logs.",
          schema: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$", description: "A correlation id." },
          example: "order-4711",
        },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "Makes a retry safe: within 24 hours the same key with the same body returns the first answer and its receipt, uncounted; " +
            "with a different body it is 422 IDEMPOTENCY_KEY_REUSED.",
          schema: {
            type: "string",
            minLength: 1,
            maxLength: 255,
            description: "1 to 255 visible ASCII characters; a UUID is a good choice.",
          },
          example: IDEMPOTENCY_KEY_EXAMPLE,
        },
      },
    },
  };
}
