import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ listen: true });
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
  test("lists only the tools the key may call, with input and output schemas, hints and the tier", async () => {
    const explorer = await mcpClient((await server.accountWithKey("explorer")).key);
    const { tools } = await explorer.listTools();
    const explorerSkills = server.runtime.skills
      .filter((skill) => skill.minimumTier === "explorer")
      .map((skill) => skill.name);
    // rate-lookup brings its bid-sheet tools (they are part of it).
    const batchTools = ["rate-lookup-batch", "rate-lookup-batch-results"];
    expect(tools.map((tool) => tool.name).sort()).toEqual([...explorerSkills, ...batchTools].sort());
    const lookup = defined(
      tools.find((tool) => tool.name === "rate-lookup"),
      "the rate-lookup tool",
    );
    expect(lookup.inputSchema.properties).toHaveProperty("origin");
    expect(lookup.outputSchema?.properties).toHaveProperty("rate_per_mile");
    expect(lookup.outputSchema?.required).toEqual(expect.arrayContaining(["receipt_id", "auth_obj_id"]));
    expect(lookup.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(lookup._meta).toMatchObject({ "waybill/minimum_tier": "explorer" });
    await explorer.close();

    const scoped = await mcpClient((await server.accountWithKey("professional", ["rate-lookup", "audit-report"])).key);
    const scopedTools = (await scoped.listTools()).tools;
    expect(scopedTools.map((tool) => tool.name).sort()).toEqual(["audit-report", "rate-lookup", ...batchTools]);
    expect(
      defined(
        scopedTools.find((tool) => tool.name === "audit-report"),
        "the audit-report tool",
      ).annotations?.idempotentHint,
    ).toBeUndefined();
    await scoped.close();
  });

  test("a tool call runs the pipeline: structured answer with a receipt and the minute window; refusals carry the REST codes", async () => {
    const { key, authObjId } = await server.accountWithKey("explorer");
    const client = await mcpClient(key);
    await client.listTools(); // the SDK client checks structuredContent against the listed output schema
    const answered = await client.callTool({ name: "rate-lookup", arguments: CHICAGO_TO_DALLAS });
    expect(answered.isError).toBe(false);
    const body = answered.structuredContent as Record<string, unknown>;
    expect(body.receipt_id).toMatch(/^rcpt_/);
    expect(body.auth_obj_id).toBe(authObjId);
    expect(answered._meta?.["waybill/rate_limit"]).toMatchObject({
      limit: expect.any(Number),
      remaining: expect.any(Number),
    });

    const refused = await client.callTool({ name: "audit-report", arguments: { receipt_id: String(body.receipt_id) } });
    expect(refused.isError).toBe(true);
    const error = JSON.parse(defined((refused.content as { text: string }[])[0], "the refusal's text").text);
    expect(error).toMatchObject({
      error: "TIER_REQUIRED",
      required_tier: "professional",
      current_tier: "explorer",
      auth_obj_id: authObjId,
    });
    expect(refused._meta?.["waybill/error"]).toEqual(error);

    const invalid = await client.callTool({
      name: "rate-lookup",
      arguments: { ...CHICAGO_TO_DALLAS, equipment: "SPACESHIP" },
    });
    expect(
      JSON.parse(defined((invalid.content as { text: string }[])[0], "the invalid call's text").text),
    ).toMatchObject({ error: "INVALID_REQUEST" });
    await client.close();
  });

  test("audit-report, whose handler answers with a promise, gives the same report through REST, agent-invoke and MCP", async () => {
    const { key } = await server.accountWithKey("professional", ["rate-lookup", "audit-report"]);
    const looked = (await (
      await server.call("/v1/rates/lookup", { method: "POST", key, json: CHICAGO_TO_DALLAS })
    ).json()) as { receipt_id: string };
    const client = await mcpClient(key);
    await client.listTools();
    const input = { receipt_id: looked.receipt_id, report_type: "RECEIPT_TRACE" };
    const viaRest = (await (
      await server.call(`/v1/reports/audit?${new URLSearchParams(input)}`, { key })
    ).json()) as Record<string, unknown>;
    const viaInvoke = (await (
      await server.call("/v1/agent/invoke/audit-report", { method: "POST", key, json: input })
    ).json()) as Record<string, unknown>;
    const viaMcp = (await client.callTool({ name: "audit-report", arguments: input })).structuredContent as Record<
      string,
      unknown
    >;
    await client.close();
    // Each audit is itself an answer with a receipt, so the log grows between them: the proof's tree differs, the rest does not.
    const withoutEnvelope = ({ receipt_id: _r, log_index: _i, log, ...report }: Record<string, unknown>) => {
      const { tree_size: _s, inclusion_proof: _p, checkpoint: _c, ...leaf } = log as Record<string, unknown>;
      return { ...report, log: leaf };
    };
    for (const report of [viaRest, viaInvoke, viaMcp]) {
      expect(report).toMatchObject({
        audited_receipt_id: looked.receipt_id,
        verification: { included: true, reproducible: true, problems: [] },
      });
      expect(withoutEnvelope(report)).toEqual(withoutEnvelope(viaRest));
    }
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
    const document = (await (await server.call("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.paths["/v1/rates/lookup"]?.post?.operationId).toBe("rate-lookup");
    expect(document.paths["/v1/reports/audit"]?.get?.operationId).toBe("audit-report");
  });
});
