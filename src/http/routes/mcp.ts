import { VERSION } from "../../version.ts";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Elysia } from "elysia";
import { authenticateCaller } from "../../access/authenticate.ts";
import type { Principal } from "../../access/principal.ts";
import { runSkill, type PipelineDeps } from "../../pipeline/run-skill.ts";
import { callResolver } from "../../skills/call-names.ts";
import type { AnySkill } from "../../skills/types.ts";
import { readCappedBody } from "../pipeline/body-cap.ts";
import { errorResponse, errors } from "../../errors.ts";
import { CLIENT_GONE_STATUS, isClientGone } from "../../client-gone.ts";
import { toolResult, toolsFor } from "./mcp-tools.ts";
import { batchToolsFor, callBatchTool, isBatchTool } from "./mcp-batch-tools.ts";
import type { BatchService } from "../../batch/service.ts";
import { attributeRequest, requestIdOf } from "../pipeline/request-pipeline.ts";

export const MCP_SERVER_INFO = { name: "waybill", version: VERSION };

/**
 * The MCP transport at /mcp (Streamable HTTP, stateless, JSON responses): one tool per skill the
 * key may call, named after it (mcp-tools.ts). A tool call is a skill call like any other:
 * the same pipeline, the same limits, a receipt. The bearer key travels on the HTTP request.
 */
export function mcpRoutes(deps: PipelineDeps & { batches: BatchService }, skills: readonly AnySkill[]) {
  const resolve = callResolver(skills);

  function serverFor(
    requestId: string,
    authorization: string | null,
    httpRequest: Request,
    principal: Principal,
  ): Server {
    const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [...toolsFor(principal, skills), ...batchToolsFor(principal, skills)],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (isBatchTool(request.params.name)) {
        const context = { requestId, now: deps.clock.now(), started: performance.now() };
        const args = request.params.arguments ?? {};
        return toolResult(await callBatchTool(deps.batches, principal, request.params.name, args, context));
      }
      const resolved = resolve(request.params.name);
      const reply = resolved
        ? await runSkill(deps, resolved.skill, {
            requestId,
            authorization,
            readInput: async () => (resolved.chooser ? {} : (request.params.arguments ?? {})),
            inputSource: "body",
            signal: httpRequest.signal,
          })
        : {
            status: 404,
            body: errors.notFound(`No tool named '${request.params.name}'.`).body(requestId, principal.authObjId),
            headers: {},
          };
      return toolResult(reply);
    });
    return server;
  }

  return new Elysia({ name: "mcp" }).all(
    "/mcp",
    async ({ request }) => {
      const requestId = requestIdOf(request);
      const authorization = request.headers.get("authorization");
      let principal: Principal;
      try {
        principal = await authenticateCaller(deps, authorization); // listing tools needs a key too
        attributeRequest(request, principal.accountId, true);
      } catch (error) {
        return errorResponse(error, requestId);
      }
      let parsedBody: unknown;
      try {
        parsedBody = request.method === "POST" ? await jsonRpcBody(request) : undefined;
      } catch (error) {
        if (isClientGone(error, request.signal)) return new Response(null, { status: CLIENT_GONE_STATUS });
        return errorResponse(error, requestId);
      }
      try {
        // A tool call's admission reads the key's row anyway; anything else (tools/list, initialize) reads it here.
        if (!isToolCall(parsedBody)) await deps.confirmKeyLive(principal);
      } catch (error) {
        return errorResponse(error, requestId);
      }
      const server = serverFor(requestId, authorization, request, principal);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, { parsedBody });
      } finally {
        await server.close();
      }
    },
    { parse: "none" },
  );
}

/** One JSON-RPC request for tools/call: a skill call, whose admission confirms the key (docs/postgresql.md). */
function isToolCall(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { method?: unknown }).method === "tools/call";
}

/** The JSON-RPC message, read under the same cap as every other body (the SDK's own reader allows 4 MB). */
async function jsonRpcBody(request: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readCappedBody(request));
  try {
    return JSON.parse(text);
  } catch {
    throw errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
  }
}
