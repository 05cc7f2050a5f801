import { afterAll, beforeAll, expect, test } from "bun:test";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance(); // clock: 2026-10-15
});
afterAll(() => server.stop());

test("rate-forecast needs the professional tier", async () => {
  const starter = await server.accountWithKey("starter");
  const refused = await server.call("/v1/rates/forecast", {
    method: "POST",
    key: starter.key,
    json: CHICAGO_TO_DALLAS,
  });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({
    error: "TIER_REQUIRED",
    required_tier: "professional",
    current_tier: "starter",
  });

  const professional = await server.accountWithKey("professional");
  const response = await server.call("/v1/rates/forecast", {
    method: "POST",
    key: professional.key,
    json: { ...CHICAGO_TO_DALLAS, horizon_weeks: 4 },
  });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.receipt_id).toMatch(/^rcpt_/);
  expect(body.auth_obj_id).toBe(professional.authObjId);
  expect(body.forecast).toHaveLength(4);
  // Today's view: the newest U.S. week on or before 2026-10-15 is 2026-10-05; week 1 is the Monday after today.
  expect(body.starting_rate.diesel_week).toBe("2026-10-05");
  expect(body.forecast[0].date).toBe("2026-10-19");
});
