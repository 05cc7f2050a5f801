import { afterAll, beforeAll, expect, test } from "bun:test";
import { testInstance, type TestInstance } from "../../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance(); // clock: 2026-10-15
});
afterAll(() => server.stop());

test("explorer is refused with TIER_REQUIRED; a starter key gets the analysis with a receipt", async () => {
  const explorer = await server.accountWithKey("explorer");
  const refused = await server.call("/v1/market/analysis", { method: "POST", key: explorer.key, json: {} });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({
    error: "TIER_REQUIRED",
    required_tier: "starter",
    current_tier: "explorer",
    upgrade_url: "/pricing",
  });

  const starter = await server.accountWithKey("starter");
  const response = await server.call("/v1/market/analysis", {
    method: "POST",
    key: starter.key,
    json: { as_of: "2025-12-31" },
  });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.receipt_id).toMatch(/^rcpt_/);
  expect(body.auth_obj_id).toBe(starter.authObjId);
  expect(body.signal).toMatchObject({ value: "BALANCED", coverage: 0.95 });
  expect(body.indicators).toHaveLength(7);
});
