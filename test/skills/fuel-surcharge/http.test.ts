import { afterAll, beforeAll, expect, test } from "bun:test";
import { testInstance, type TestInstance } from "../../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance(); // clock: 2026-10-15
});
afterAll(() => server.stop());

test("an explorer key gets a surcharge with a receipt; a bad request gets the error table's 400", async () => {
  const { key, authObjId } = await server.accountWithKey("explorer", ["fuel-surcharge"]);
  const response = await server.call("/v1/fuel/surcharge", {
    method: "POST",
    key,
    json: { region: "NATIONAL", miles: 100 },
  });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.receipt_id).toMatch(/^rcpt_/);
  expect(body.auth_obj_id).toBe(authObjId);
  // Today's view: the newest U.S. week on or before 2026-10-15 is 2026-10-05 at 6.199 $/gal.
  expect(body.diesel).toMatchObject({ observation_date: "2026-10-05", price_per_gallon: 6.199 });
  expect(body.total_surcharge).toBeCloseTo(((6.199 - 1.25) / 6.9) * 100, 2);

  const refused = await server.call("/v1/agent/invoke/fuel-surcharge", {
    method: "POST",
    key,
    json: { region: "PADD9" },
  });
  expect(refused.status).toBe(400);
  const error = await refused.json();
  expect(error).toMatchObject({
    error: "INVALID_REQUEST",
    details: [{ field: "region", allowed: expect.arrayContaining(["PADD1C"]) }],
  });
});
