import { afterAll, beforeAll, expect, test } from "bun:test";
import { testInstance, type TestInstance } from "../../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance(); // clock: 2026-10-15
});
afterAll(() => server.stop());

test("GET with a query string: an explorer key gets the trend with a receipt; weeks out of range is a 400", async () => {
  const { key } = await server.accountWithKey("explorer");
  const response = await server.call("/v1/diesel/trends?region=NATIONAL&weeks=8", { key });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.receipt_id).toMatch(/^rcpt_/);
  expect(body).toMatchObject({ region: "NATIONAL", weeks: 8, latest: { date: "2026-10-05", price: 6.199 } });
  expect(body.series).toHaveLength(8);
  expect(body.regions).toHaveLength(11);

  const refused = await server.call("/v1/diesel/trends?weeks=300", { key });
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ error: "INVALID_REQUEST", details: [{ field: "weeks" }] });
});
