import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Elysia } from "elysia";
import { authenticate } from "../access/authenticate.ts";
import { runSkill, type PipelineDeps } from "../pipeline/run-skill.ts";
import { callName, type AnySkill } from "../skills/types.ts";
import { errorResponse, errors } from "../errors.ts";
import { requestIdOf } from "./request-context.ts";

export const MCP_SERVER_INFO = { name: "waybill", version: "0.1.0" };

/**
 * The MCP transport at /mcp (Streamable HTTP, stateless, JSON responses): one tool per skill,
 * named after it, with the skill's input schema. A tool call is a skill call like any other:
 * the same pipeline, the same limits, a receipt. The bearer key travels on the HTTP request.
 */
export function mcpRoutes(deps: PipelineDeps, skills: readonly AnySkill[]) {
  const byName = new Map(skills.map((skill) => [callName(skill), skill]));

  function serverFor(requestId: string, authorization: string | null): Server {
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: skills.map((skill) => ({ name: callName(skill), description: skill.description, inputSchema: skill.input as unknown as { type: "object" } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const skill = byName.get(request.params.name);
      const reply = skill
        ? await runSkill(deps, skill, {
            requestId,
            authorization,
            readInput: async () => request.params.arguments ?? {},
            inputSource: "body",
          })
        : { status: 404, body: errors.notFound(`No tool named '${request.params.name}'.`).body(requestId) };
      return {
        content: [{ type: "text" as const, text: JSON.stringify(reply.body) }],
        structuredContent: reply.body,
        isError: reply.status >= 400,
      };
    });
    return server;
  }

  return new Elysia({ name: "mcp" }).all(
    "/mcp",
    async ({ request }) => {
      const requestId = requestIdOf(request);
      const authorization = request.headers.get("authorization");
      deps.refreshCaches();
      try {
        authenticate(deps.keys, authorization); // listing tools needs a key too
      } catch (error) {
        return errorResponse(error, requestId);
      }
      const server = serverFor(requestId, authorization);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        await server.close();
      }
    },
    { parse: "none" },
  );
}
