import { Elysia } from "elysia";
import { SkillCatalog } from "../skills/catalog.ts";
import { callName, type AnySkill } from "../skills/types.ts";

const ERROR_SCHEMA = {
  type: "object",
  required: ["error", "message", "request_id"],
  properties: {
    error: { type: "string", description: "UPPER_SNAKE code from the error table" },
    message: { type: "string" },
    request_id: { type: "string" },
    auth_obj_id: { type: "string" },
  },
  additionalProperties: true,
};

const REFUSALS = {
  "400": "INVALID_REQUEST",
  "401": "MISSING_API_KEY, MALFORMED_API_KEY, INVALID_API_KEY or REVOKED_API_KEY",
  "403": "TIER_REQUIRED or SCOPE_REQUIRED",
  "413": "PAYLOAD_TOO_LARGE",
  "415": "UNSUPPORTED_MEDIA_TYPE",
  "422": "UNRESOLVED_LOCATION (and other inputs that parse but cannot be answered)",
  "404": "NOT_FOUND (an id that is not the caller's is the same as a missing one)",
  "409": "ALERT_LIMIT_REACHED (rate-alerts.create past the tier's cap)",
  "429": "RATE_LIMITED",
  "500": "INTERNAL_ERROR",
};

/** TypeBox schemas are JSON Schema already; JSON round-tripping drops TypeBox's symbol markers. */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema));

/** `/v1/alerts/:id` → `/v1/alerts/{id}` and the names of its path parameters. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return { path: path.replace(/:(\w+)/g, "{$1}"), params };
}

function operationOf(skill: AnySkill) {
  const input = plain(skill.input) as { properties?: Record<string, unknown>; required?: string[] };
  const pathParams = openApiPath(skill.rest.path).params;
  const parameter = (name: string, where: "query" | "path") => ({
    name,
    in: where,
    required: where === "path" || (input.required?.includes(name) ?? false),
    schema: input.properties?.[name],
  });
  const bodyProperties = Object.fromEntries(Object.entries(input.properties ?? {}).filter(([name]) => !pathParams.includes(name)));
  const body = { ...input, properties: bodyProperties, required: input.required?.filter((name) => !pathParams.includes(name)) };
  const name = callName(skill);
  const refusals = Object.fromEntries(
    Object.entries(REFUSALS).map(([status, description]) => [
      status,
      { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    ]),
  );
  return {
    operationId: name,
    summary: skill.description,
    description: `Skill '${skill.name}': scope ${skill.name}, minimum tier ${skill.minimumTier}. Also callable as POST /v1/agent/invoke/${name} and as the MCP tool '${name}'.`,
    tags: [skill.minimumTier],
    security: [{ bearer: [] }],
    ...(skill.rest.method === "GET" || skill.rest.method === "DELETE"
      ? { parameters: Object.keys(input.properties ?? {}).map((field) => parameter(field, pathParams.includes(field) ? "path" : "query")) }
      : {
          parameters: pathParams.map((field) => parameter(field, "path")),
          requestBody: { required: true, content: { "application/json": { schema: body } } },
        }),
    responses: {
      "200": {
        description: "Answered, with receipt_id and auth_obj_id",
        headers: {
          "X-RateLimit-Limit": { schema: { type: "integer" } },
          "X-RateLimit-Remaining": { schema: { type: "integer" } },
          "X-RateLimit-Reset": { schema: { type: "integer", description: "Unix epoch seconds" } },
        },
        content: { "application/json": { schema: plain(skill.output) } },
      },
      ...refusals,
    },
  };
}

/** The OpenAPI 3.1 document, generated from the same declarations as the routes. */
export function openApiDocument(skills: readonly AnySkill[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const skill of skills) {
    const { path } = openApiPath(skill.rest.path);
    paths[path] = { ...paths[path], [skill.rest.method.toLowerCase()]: operationOf(skill) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Waybill",
      version: "0.1.0",
      description: `Cost-basis truckload rates from public US data, metered per key and proven by signed, hash-chained receipts. Scopes: ${new SkillCatalog(skills).scopes.join(", ")}.`,
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "wbk_ followed by 64 hex characters" } },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}

export function openApiRoutes(skills: readonly AnySkill[]) {
  const document = openApiDocument(skills);
  return new Elysia({ name: "openapi" }).get("/openapi.json", () => document);
}
