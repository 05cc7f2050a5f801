import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { testInstance, type TestInstance } from "../../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ listen: true }); // a real port, for the MCP client; clock: 2026-10-15
});
afterAll(() => server.stop());

const REQUEST = { area: "PADD3", equipment: "REEFER", as_of: "2021-04-15" };

test("explorer is refused with TIER_REQUIRED; a starter key without the scope with SCOPE_REQUIRED", async () => {
  const explorer = await server.accountWithKey("explorer");
  const refused = await server.call("/v1/carriers/capacity", { method: "POST", key: explorer.key, json: REQUEST });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({
    error: "TIER_REQUIRED",
    required_tier: "starter",
    current_tier: "explorer",
  });

  const narrow = await server.accountWithKey("starter", ["rate-lookup"]);
  const scoped = await server.call("/v1/carriers/capacity", { method: "POST", key: narrow.key, json: REQUEST });
  expect(scoped.status).toBe(403);
  expect(await scoped.json()).toMatchObject({ error: "SCOPE_REQUIRED", required_scope: "carrier-capacity" });
});

test("a starter key gets the same answer over REST, invoke and MCP, each with its own receipt", async () => {
  const starter = await server.accountWithKey("starter", ["carrier-capacity"]);
  const rest = await server.call("/v1/carriers/capacity", { method: "POST", key: starter.key, json: REQUEST });
  expect(rest.status).toBe(200);
  const body = await rest.json();
  expect(body.receipt_id).toMatch(/^rcpt_/);
  expect(body.area).toMatchObject({ name: "PADD3", kind: "PADD" });
  expect(body.capacity_pressure.history).toHaveLength(3);

  const invoked = await (
    await server.call("/v1/agent/invoke/carrier-capacity", { method: "POST", key: starter.key, json: REQUEST })
  ).json();
  expect(invoked.receipt_id).not.toBe(body.receipt_id);
  expect(invoked.capacity_pressure).toEqual(body.capacity_pressure);

  const client = new Client({ name: "waybill-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${starter.key}` } },
    }),
  );
  const tool = await client.callTool({ name: "carrier-capacity", arguments: REQUEST });
  expect(tool.isError).toBe(false);
  expect((tool.structuredContent as typeof body).capacity_pressure).toEqual(body.capacity_pressure);
  await client.close();
});

test("bad input is a 400 naming the field; the skill is listed and documented", async () => {
  const { key } = await server.accountWithKey("starter");
  const bad = await server.call("/v1/carriers/capacity", { method: "POST", key, json: { area: "TX", states: ["OK"] } });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ error: "INVALID_REQUEST", details: [{ field: "states" }] });

  const skills = (await (await server.call("/v1/skills", { key })).json()) as
    | { skills: { name: string }[] }
    | { name: string }[];
  expect(JSON.stringify(skills)).toContain("carrier-capacity");
  const openapi = (await (await server.call("/openapi.json")).json()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  expect(openapi.paths["/v1/carriers/capacity"]?.post?.operationId).toBe("carrier-capacity");
});
