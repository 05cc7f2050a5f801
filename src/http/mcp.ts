import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Elysia } from "elysia";
import { authenticate } from "../access/authenticate.ts";
import type { Principal } from "../access/principal.ts";
import { runSkill, type PipelineDeps } from "../pipeline/run-skill.ts";
import type { AnySkill } from "../skills/types.ts";
import { errorResponse, errors } from "../errors.ts";
import { toolResult, toolsFor } from "./mcp-tools.ts";
import { requestIdOf } from "./request-context.ts";

export const MCP_SERVER_INFO = { name: "waybill", version: "0.1.0" };

/**
 * The MCP transport at /mcp (Streamable HTTP, stateless, JSON responses): one tool per skill the
 * key may call, named after it (mcp-tools.ts). A tool call is a skill call like any other:
 * the same pipeline, the same limits, a receipt. The bearer key travels on the HTTP request.
 */
export function mcpRoutes(deps: PipelineDeps, skills: readonly AnySkill[]) {
  const byName = new Map(skills.map((skill) => [skill.name as string, skill]));

  function serverFor(requestId: string, authorization: string | null, principal: Principal): Server {
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsFor(principal, skills) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const skill = byName.get(request.params.name);
      const reply = skill
        ? await runSkill(deps, skill, {
            requestId,
            authorization,
            readInput: async () => request.params.arguments ?? {},
            inputSource: "body",
          })
        : { status: 404, body: errors.notFound(`No tool named '${request.params.name}'.`).body(requestId, principal.authObjId), headers: {} };
      return toolResult(reply);
    });
    return server;
  }

  return new Elysia({ name: "mcp" }).all(
    "/mcp",
    async ({ request }) => {
      const requestId = requestIdOf(request);
      const authorization = request.headers.get("authorization");
      deps.refreshCaches();
      let principal: Principal;
      try {
        principal = authenticate(deps.keys, authorization); // listing tools needs a key too
      } catch (error) {
        return errorResponse(error, requestId);
      }
      const server = serverFor(requestId, authorization, principal);
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
