import { afterAll, beforeAll, expect, test } from "bun:test";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance();
});
afterAll(() => server.stop());

test("GET /v1/skills lists every declared skill with scope, tier, description and input schema", async () => {
  const { key, authObjId } = await server.accountWithKey("explorer", ["rate-lookup"]);
  const response = await server.call("/v1/skills", { key });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { skills: Record<string, unknown>[]; auth_obj_id: string };
  expect(body.auth_obj_id).toBe(authObjId);
  const names = body.skills.map((s) => s.name);
  expect(names).toContain("rate-lookup");
  expect(names).toContain("audit-report");
  const lookup = defined(
    body.skills.find((s) => s.name === "rate-lookup"),
    'the body.skills entry where s.name === "rate-lookup"',
  );
  expect(lookup).toMatchObject({
    scope: "rate-lookup",
    minimum_tier: "explorer",
    method: "POST",
    path: "/v1/rates/lookup",
    available_to_this_key: true,
  });
  expect((lookup.input_schema as { properties: Record<string, unknown> }).properties).toHaveProperty("origin");
  expect(
    defined(
      body.skills.find((s) => s.name === "audit-report"),
      'the body.skills entry where s.name === "audit-report"',
    ).available_to_this_key,
  ).toBe(false);
});

test("GET /v1/skills needs a valid key", async () => {
  expect((await server.call("/v1/skills")).status).toBe(401);
});

test("the invoke transport answers exactly like the REST route", async () => {
  const { key } = await server.accountWithKey("starter");
  const rest = (await (
    await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key })
  ).json()) as Record<string, unknown>;
  const invoked = (await (
    await server.call("/v1/agent/invoke/rate-lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key })
  ).json()) as Record<string, unknown>;
  const strip = ({ receipt_id, log_index, ...rest }: Record<string, unknown>) => rest;
  expect(strip(invoked)).toEqual(strip(rest));
  expect(invoked.receipt_id).not.toBe(rest.receipt_id);

  const { key: scoped } = await server.accountWithKey("explorer", ["fuel-surcharge"]);
  const refused = await server.call("/v1/agent/invoke/rate-lookup", {
    method: "POST",
    json: CHICAGO_TO_DALLAS,
    key: scoped,
  });
  expect(refused.status).toBe(403);
});
