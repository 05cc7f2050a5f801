import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { decide } from "../../access/authorize.ts";
import type { Principal } from "../../access/principal.ts";
import type { SkillReply } from "../../pipeline/run-skill.ts";
import { toolName, toolTitle } from "../../skills/call-names.ts";
import { callName, type AnySkill } from "../../skills/types.ts";

type Json = Record<string, unknown>;
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;

const ANSWER_IDS = {
  receipt_id: { type: "string", description: "The signed receipt of this answer." },
  auth_obj_id: { type: "string", description: "The key grant that made the call." },
};

/** MCP wants an object schema; the answer is the skill's output plus its receipt and key grant ids. */
function outputSchemaOf(skill: AnySkill): Tool["outputSchema"] {
  const output = plain(skill.output);
  const withIds = (form: Json): Json => ({
    ...form,
    properties: { ...(form.properties as Json), ...ANSWER_IDS },
    required: [...new Set([...((form.required as string[]) ?? []), "receipt_id", "auth_obj_id"])],
  });
  const members = output.anyOf as Json[] | undefined;
  return (members ? { type: "object", anyOf: members.map(withIds) } : withIds(output)) as Tool["outputSchema"];
}

/**
 * One tool per skill the key may call (its scopes and its account's tier), with input and output
 * schemas, hints and the tier in `_meta`. Handlers only read (docs/api.md): every tool is
 * read-only; a replayable skill gives the same answer to the same input and data, hence idempotent.
 */
export function toolsFor(principal: Principal, skills: readonly AnySkill[]): Tool[] {
  return skills
    .filter((skill) => decide(principal.tier, principal.scopes, skill).allowed)
    .map((skill) => ({
      name: toolName(skill),
      title: toolTitle(skill),
      description: `${skill.description} (Tier: ${skill.minimumTier} and up. Each call is metered and returns a receipt_id.)`,
      inputSchema: plain(skill.input) as Tool["inputSchema"],
      outputSchema: outputSchemaOf(skill),
      annotations: {
        readOnlyHint: !skill.write,
        ...(skill.replayable && !skill.write ? { idempotentHint: true } : {}),
        openWorldHint: false,
      },
      _meta: {
        "waybill/minimum_tier": skill.minimumTier,
        "waybill/scope": skill.name,
        "waybill/rest": `${skill.rest.method} ${skill.rest.path}`,
        "waybill/invoke": `POST /v1/agent/invoke/${callName(skill)}`,
      },
    }));
}

const RATE_LIMIT_HEADERS = {
  limit: "X-RateLimit-Limit",
  remaining: "X-RateLimit-Remaining",
  reset: "X-RateLimit-Reset",
} as const;

/** The minute window the REST transport sends as headers, for an MCP client that cannot see them. */
function rateLimitOf(headers: Record<string, string>): Json | undefined {
  if (headers[RATE_LIMIT_HEADERS.limit] === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(RATE_LIMIT_HEADERS).map(([field, header]) => [field, Number(headers[header])]),
  );
}

/**
 * A skill reply as a tool result. Answers go out as structuredContent (and as text, for clients
 * without structured output). Refusals are tool errors whose text is the same JSON body REST sends,
 * error code included, repeated in `_meta` (structuredContent must match the output schema).
 */
export function toolResult(reply: Pick<SkillReply, "status" | "body" | "headers">) {
  const rateLimit = rateLimitOf(reply.headers);
  const text = [{ type: "text" as const, text: JSON.stringify(reply.body) }];
  if (reply.status < 400) {
    return {
      content: text,
      structuredContent: reply.body,
      isError: false,
      ...(rateLimit ? { _meta: { "waybill/rate_limit": rateLimit } } : {}),
    };
  }
  return {
    content: text,
    isError: true,
    _meta: { "waybill/error": reply.body, ...(rateLimit ? { "waybill/rate_limit": rateLimit } : {}) },
  };
}
