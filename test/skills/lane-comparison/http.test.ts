import { afterAll, beforeAll, expect, test } from "bun:test";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance(); // clock: 2026-10-15
});
afterAll(() => server.stop());

test("a starter key compares lanes with a receipt; an unresolvable lane end is a 422 naming the lane", async () => {
  const { key, authObjId } = await server.accountWithKey("starter", ["lane-comparison"]);
  const lanes = [
    CHICAGO_TO_DALLAS,
    { origin: "Denver, CO", destination: "Chicago, IL", equipment: "REEFER", label: "return" },
  ];
  const response = await server.call("/v1/lanes/compare", { method: "POST", key, json: { lanes } });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.receipt_id).toMatch(/^rcpt_/);
  expect(body.auth_obj_id).toBe(authObjId);
  expect(body.lanes.map((lane: { rank: number }) => lane.rank)).toEqual([1, 2]);
  expect(body.as_of).toBe("2026-10-15");

  const refused = await server.call("/v1/agent/invoke/lane-comparison", {
    method: "POST",
    key,
    json: { lanes: [CHICAGO_TO_DALLAS, { ...CHICAGO_TO_DALLAS, destination: "Zzyzqx Flats, QQ" }] },
  });
  expect(refused.status).toBe(422);
  expect(await refused.json()).toMatchObject({ error: "UNRESOLVED_LOCATION", field: "lanes.1.destination" });
});
