import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = testInstance({ listen: true });
});
afterAll(() => server.stop());

async function mcpClient(key: string) {
  const client = new Client({ name: "waybill-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

describe("MCP at /mcp, with the official client over real HTTP", () => {
  test("lists one tool per skill with the skill's input schema", async () => {
    const { key } = server.accountWithKey("explorer");
    const client = await mcpClient(key);
    const { tools } = await client.listTools();
    const lookup = tools.find((t) => t.name === "rate-lookup");
    expect(lookup?.inputSchema.properties).toHaveProperty("origin");
    expect(tools.map((t) => t.name)).toContain("audit-report");
    await client.close();
  });

  test("a tool call runs the pipeline: answer with a receipt, and the same tier gate", async () => {
    const { key, authObjId } = server.accountWithKey("explorer");
    const client = await mcpClient(key);
    const answered = await client.callTool({ name: "rate-lookup", arguments: CHICAGO_TO_DALLAS });
    expect(answered.isError).toBe(false);
    const body = answered.structuredContent as Record<string, unknown>;
    expect(body.receipt_id).toMatch(/^rcpt_/);
    expect(body.auth_obj_id).toBe(authObjId);

    const refused = await client.callTool({ name: "audit-report", arguments: { receipt_id: String(body.receipt_id) } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: "TIER_REQUIRED", required_tier: "professional", current_tier: "explorer" });
    await client.close();
  });

  test("without a key the endpoint answers 401 like every other", async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe("MISSING_API_KEY");
  });
});

describe("OpenAPI", () => {
  test("documents every skill's path from its declaration", async () => {
    const document = (await (await server.call("/openapi.json")).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(document.paths["/v1/rates/lookup"]?.post?.operationId).toBe("rate-lookup");
    expect(document.paths["/v1/reports/audit"]?.get?.operationId).toBe("audit-report");
  });
});
