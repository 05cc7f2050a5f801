import { expect, test } from "bun:test";
import { issueKey } from "../../src/access/keys.ts";
import { accountWithPassword, PASSWORD } from "../support/accounts.ts";
import { dashboardApp, form, ORIGIN, sessionCookieFrom } from "./support.ts";
import { defined } from "../support/defined.ts";

const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

async function signedInWithCalls() {
  const { db, clock, runtime, app } = await dashboardApp();
  const account = await accountWithPassword(db, "usage@example.com", "starter");
  const { key } = await issueKey(db, account.id, null, clock.now());
  const call = (body: unknown) =>
    app.handle(
      new Request(`${ORIGIN}/v1/rates/lookup`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  expect((await call(LANE)).status).toBe(200);
  expect((await call({ ...LANE, destination: "Houston, TX" })).status).toBe(200);
  expect((await call({ ...LANE, equipment: "SPACESHIP" })).status).toBe(400);
  await runtime.usage.flush();
  const signIn = await app.handle(
    new Request(`${ORIGIN}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form({ email: "usage@example.com", password: PASSWORD }),
    }),
  );
  const cookie = sessionCookieFrom(signIn);
  const get = (path: string) => app.handle(new Request(ORIGIN + path, { headers: { cookie } }));
  return { get, runtime };
}

test("usage separates answered from refused, and the answered total is the quota line", async () => {
  const { get, runtime } = await signedInWithCalls();
  for (const path of ["/dashboard/usage", "/dashboard"]) {
    const html = await (await get(path)).text();
    expect(html).toContain('2</span><span class="of"> of 2,000 answered');
    expect(html).toContain("1 refused call this month, not counted toward the quota");
  }
  const usage = await (await get("/dashboard/usage")).text();
  expect(usage).toMatch(/<tfoot>.*class="num total-answered">2<.*class="num total-refused">1</s);
  const [, islandJson] = /id="daily-calls-data">([^<]+)</.exec(usage) ?? [];
  const island = JSON.parse(defined(islandJson, "the daily-calls data island")) as {
    series: { skill: string; counts: number[] }[];
  };
  const answeredBand = defined(
    island.series.find((s) => s.skill === "rate-lookup"),
    'the island.series entry where s.skill === "rate-lookup"',
  );
  expect(answeredBand.counts.reduce((a, b) => a + b, 0)).toBe(2);
  expect(
    defined(
      island.series.find((s) => s.skill.startsWith("refused")),
      'the island.series entry where s.skill.startsWith("refused")',
    ).counts.reduce((a, b) => a + b, 0),
  ).toBe(1);
  await runtime.close();
});

test("the month's calls download as CSV, one row per call with its outcome", async () => {
  const { get, runtime } = await signedInWithCalls();
  const response = await get("/dashboard/usage.csv");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/csv");
  expect(response.headers.get("content-disposition")).toContain('filename="waybill-usage-2026-10.csv"');
  const [header, ...rows] = (await response.text()).trimEnd().split("\r\n");
  expect(header).toBe("time_utc,request_id,skill,outcome,status,latency_ms,key,receipt_id");
  expect(rows.map((row) => row.split(",").slice(2, 5))).toEqual([
    ["rate-lookup", "answered", "200"],
    ["rate-lookup", "answered", "200"],
    ["rate-lookup", "refused", "400"],
  ]);
  expect(defined(rows[0], "rows[0]").split(",")[7]).toMatch(/^rcpt_/);
  await runtime.close();
});

test("an unknown dashboard address is the dashboard's own 404 page", async () => {
  const { get, runtime } = await signedInWithCalls();
  const response = await get("/dashboard/no/such/page");
  expect(response.status).toBe(404);
  expect(response.headers.get("content-type")).toStartWith("text/html");
  expect(await response.text()).toContain("There is no such page in the dashboard.");
  // Real pages still win over the catch-all.
  expect((await get("/dashboard/keys")).status).toBe(200);
  await runtime.close();
});
