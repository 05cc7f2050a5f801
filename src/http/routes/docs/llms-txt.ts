import type { AnySkill } from "../../../skills/types.ts";
import { skillLines } from "./skill-lines.ts";

/**
 * /llms.txt (the llmstxt.org layout: a title, a one-line summary, then lists of links), generated
 * from the skill registry so a new skill is listed the moment it is registered.
 */
export function llmsTxt(skills: readonly AnySkill[], origin: string): string {
  const lines = [
    "# Waybill",
    "",
    "> Truckload cost-basis freight rates computed from public US data (EIA diesel, BLS wages, FRED indices, USDA AMS reefer rates), " +
      "over HTTP/JSON and MCP. Every answer carries a receipt in a signed transparency log that can be verified offline.",
    "",
    "Every /v1 call needs `Authorization: Bearer wbk_…` (an API key from the dashboard). Each skill is gated by the account's tier " +
      "and the key's scopes, and metered per minute and per month. Answers carry `receipt_id` and `auth_obj_id`; errors carry an " +
      "`error` code, a `message` and a `request_id`.",
    "",
    "## Docs",
    "",
    `- [Agent guide](${origin}/docs/agents.md): authenticate, pick a skill (REST, invoke or MCP, with a client configuration), read receipts and limits, verify an answer`,
    `- [OpenAPI 3.1 document](${origin}/openapi.json): every route, input and output schema, error and header`,
    `- [API reference](${origin}/docs): the same document, browsable, with a request console`,
    "",
    "## Skills",
    "",
    ...skillLines(skills).map(
      (skill) =>
        `- [${skill.name}](${origin}${skill.path}): ${skill.method} ${skill.path}, ${skill.tier} tier and up. ${skill.summary}`,
    ),
    "",
    "## Optional",
    "",
    `- [Skills for this key](${origin}/v1/skills): GET, lists every skill and whether your key may call it`,
    `- [Usage](${origin}/v1/usage): GET, your month to date and minute headroom`,
    `- [Receipt public key](${origin}/v1/receipts/public-key): GET, no key needed; verifies the log's signed checkpoints`,
    `- [MCP endpoint](${origin}/mcp): Streamable HTTP, stateless, the same bearer key; one tool per skill`,
    "",
  ];
  return lines.join("\n");
}
