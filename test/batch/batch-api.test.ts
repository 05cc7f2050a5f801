import { afterEach, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import { DEFAULT_LIMITS, type LimitsTable } from "../../src/metering/limits.ts";
import { recentCalls } from "../../src/metering/usage-report.ts";
import { testInstance, type TestInstance } from "../support/instance.ts";

let instance: TestInstance;
afterEach(() => instance?.stop());

const SHEET_CSV = [
  "Customer ref,origin,destination,equipment,include fuel surcharge",
  'A-1,"Chicago, IL","Dallas, TX",dry van,yes',
  'A-2,"Nowhereville, ZZ","Dallas, TX",DRY_VAN,',
  'A-3,"Atlanta, GA","Memphis, TN",HOPPER,',
  'A-4,"Fresno, CA","Chicago, IL",reefer,no',
].join("\n");

const limits = (perMonth: number, perMinute = 60): LimitsTable => ({
  ...DEFAULT_LIMITS,
  starter: { perMinute, perMonth },
});

async function submitCsv(key: string, body = SHEET_CSV) {
  return instance.call("/v1/rates/batch", {
    method: "POST",
    key,
    headers: { "content-type": "text/csv" },
    body,
  });
}

async function monthUsed(accountId: string): Promise<number> {
  const row = instance.db.$client
    .query<{ answered: number }, [string]>("SELECT answered FROM monthly_usage WHERE account_id = ?")
    .get(accountId);
  return row?.answered ?? 0;
}

describe("POST /v1/rates/batch", () => {
  test("a CSV sheet is priced row by row: priced rows with receipts, bad rows in place with their codes", async () => {
    instance = await testInstance({ limits: limits(100) });
    const { key, accountId, authObjId } = await instance.accountWithKey("starter");

    const submitted = await submitCsv(key);
    expect(submitted.status).toBe(202);
    const job = (await submitted.json()) as {
      job_id: string;
      status_url: string;
      receipt_id: string;
      auth_obj_id: string;
    };
    expect(job.job_id).toMatch(/^job_/);
    expect(job.status_url).toBe(`/v1/rates/batch/${job.job_id}`);
    expect(job.receipt_id).toMatch(/^rcpt_/);
    expect(job.auth_obj_id).toBe(authObjId);

    await instance.runtime.batchRunner.idle();
    const status = await (await instance.call(job.status_url, { key })).json();
    expect(status).toMatchObject({ status: "done", done: 4, total: 4, receipt_id: job.receipt_id });

    const csv = await instance.call(`${job.status_url}/results`, { key, headers: { accept: "text/csv" } });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("x-receipt-id")).toBe(job.receipt_id);
    const rows = Papa.parse<Record<string, string>>(await csv.text(), { header: true }).data;
    expect(rows.map((row) => row["Customer ref"])).toEqual(["A-1", "A-2", "A-3", "A-4"]);
    expect(Number(rows[0]?.rate_per_mile)).toBeGreaterThan(0);
    expect(rows[0]?.receipt_id).toMatch(/^rcpt_/);
    expect(rows[1]).toMatchObject({ error: "UNRESOLVED_LOCATION", receipt_id: "" });
    expect(rows[2]).toMatchObject({ error: "INVALID_REQUEST", receipt_id: "" });
    expect(rows[2]?.message).toContain("equipment");
    expect(rows[3]?.receipt_id).toMatch(/^rcpt_/);
    expect(rows[3]?.confidence).not.toBe("");

    // Two priced lanes count toward the month; refused rows do not.
    expect(await monthUsed(accountId)).toBe(2);
    // The usage report agrees: the submission is a call of the minute only, listed with its 202, not answered.
    const usage = (await (await instance.call("/v1/usage", { key })).json()) as {
      quota: { used: number };
      totals: { answered: number };
      skills: { skill: string; answered: number; refused: number }[];
    };
    expect(usage.quota.used).toBe(2);
    expect(usage.totals.answered).toBe(2);
    expect(usage.skills).toEqual([{ skill: "rate-lookup", answered: 2, refused: 0 }]);
    const calls = await recentCalls(instance.db, accountId, 10);
    expect(calls.find((call) => call.receiptId === job.receipt_id)).toMatchObject({
      skill: "rate-lookup.batch",
      status: 202,
    });
    // Each priced lane has its own rate-lookup receipt, verifiable like any other.
    const receipts = instance.db.$client
      .query<{ id: string; skill: string; request_id: string }, []>(
        "SELECT id, skill, request_id FROM receipts ORDER BY seq",
      )
      .all();
    expect(receipts.map((receipt) => receipt.skill)).toEqual(["rate-lookup.batch", "rate-lookup", "rate-lookup"]);
    expect(receipts[0]?.id).toBe(job.receipt_id);
    expect(receipts.slice(1).map((receipt) => receipt.id)).toEqual([
      rows[0]?.receipt_id ?? "",
      rows[3]?.receipt_id ?? "",
    ]);
    expect(receipts[1]?.request_id).toBe(`${job.job_id}/1`);

    const lines = (await (await instance.call(`${job.status_url}/results`, { key })).text()).trim().split("\n");
    expect(lines).toHaveLength(4);
    const first = JSON.parse(lines[0] ?? "{}");
    expect(first).toMatchObject({ row: 1, receipt_id: rows[0]?.receipt_id });
    expect(JSON.parse(lines[1] ?? "{}").suggestions).toBeArray();
  });

  test("JSON lanes, and the minute counts the submission and each read, never the lanes", async () => {
    instance = await testInstance({ limits: limits(100, 3) });
    const { key } = await instance.accountWithKey("starter");
    const lanes = Array.from({ length: 5 }, () => ({
      origin: "Chicago, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
    }));
    const submitted = await instance.call("/v1/rates/batch", { method: "POST", key, json: { lanes } });
    expect(submitted.status).toBe(202);
    expect(submitted.headers.get("x-ratelimit-remaining")).toBe("2");
    const { status_url } = (await submitted.json()) as { status_url: string };
    await instance.runtime.batchRunner.idle();
    expect((await instance.call(status_url, { key })).status).toBe(200);
    expect((await instance.call(`${status_url}/results`, { key })).status).toBe(200);
    const fourth = await instance.call(status_url, { key });
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as { window: string }).window).toBe("minute");
  });

  test("a sheet larger than the month's remainder is refused before anything is priced", async () => {
    instance = await testInstance({ limits: limits(3) });
    const { key, accountId } = await instance.accountWithKey("starter");
    const refused = await submitCsv(key);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      error: "RATE_LIMITED",
      window: "month",
      lanes_needed: 4,
      lanes_left: 3,
    });
    expect(await monthUsed(accountId)).toBe(0);
    const jobs = instance.db.$client.query("SELECT count(*) AS n FROM batch_jobs").get() as { n: number };
    expect(jobs.n).toBe(0);
  });

  test("scope and tier are rate-lookup's; another account's job is not found", async () => {
    instance = await testInstance({ limits: limits(100) });
    const narrow = await instance.accountWithKey("starter", ["diesel-trends"]);
    const scoped = await submitCsv(narrow.key);
    expect(scoped.status).toBe(403);
    expect(((await scoped.json()) as { error: string }).error).toBe("SCOPE_REQUIRED");

    const owner = await instance.accountWithKey("starter");
    const other = await instance.accountWithKey("starter");
    const { status_url } = (await (await submitCsv(owner.key)).json()) as { status_url: string };
    expect((await instance.call(status_url, { key: other.key })).status).toBe(404);
    expect((await instance.call(status_url)).status).toBe(401);
  });

  test("bad sheets: no header, a wrong media type, too many lanes", async () => {
    instance = await testInstance({ limits: limits(100_000) });
    const { key } = await instance.accountWithKey("starter");
    const headerless = await submitCsv(key, "Chicago IL,Dallas TX,DRY_VAN\n");
    expect(headerless.status).toBe(400);
    expect(JSON.stringify(await headerless.json())).toContain("header row lacks");
    const xml = await instance.call("/v1/rates/batch", {
      method: "POST",
      key,
      headers: { "content-type": "application/xml" },
      body: "<a/>",
    });
    expect(xml.status).toBe(415);
    const huge = ["origin,destination,equipment", ...Array.from({ length: 10_001 }, () => "60601,75201,DRY_VAN")].join(
      "\n",
    );
    const tooMany = await submitCsv(key, huge);
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(await tooMany.json())).toContain("at most 10000");
  });

  test("a job interrupted mid-way resumes without pricing or counting a row twice", async () => {
    instance = await testInstance({ limits: limits(100) });
    const { key, accountId } = await instance.accountWithKey("starter");
    const { job_id } = (await (await submitCsv(key)).json()) as { job_id: string };
    await instance.runtime.batchRunner.idle();
    // As if the process had stopped after the first row: rows 2-4 unsettled, the job still running.
    const db = instance.db.$client;
    db.run("UPDATE batch_rows SET outcome = NULL WHERE job_id = ? AND row > 1", [job_id]);
    db.run("UPDATE batch_jobs SET status = 'running', done = 1 WHERE id = ?", [job_id]);
    const receiptsBefore = (db.query("SELECT count(*) AS n FROM receipts").get() as { n: number }).n;
    const usedBefore = await monthUsed(accountId);
    instance.runtime.batchRunner.wake();
    await instance.runtime.batchRunner.idle();
    const job = db.query("SELECT status, done FROM batch_jobs WHERE id = ?").get(job_id);
    expect(job).toEqual({ status: "done", done: 4 });
    // Only row 4 (priced) was priced again; row 1 was not touched.
    expect(await monthUsed(accountId)).toBe(usedBefore + 1);
    expect((db.query("SELECT count(*) AS n FROM receipts").get() as { n: number }).n).toBe(receiptsBefore + 1);
  });
});

describe("bid sheets on the other transports", () => {
  const mcp = (key: string, method: string, params: unknown) =>
    instance.call("/mcp", {
      method: "POST",
      key,
      json: { jsonrpc: "2.0", id: 1, method, params },
      headers: { accept: "application/json, text/event-stream" },
    });

  test("MCP lists and runs the batch tools for a key that may call rate-lookup; /v1/skills names the batch path", async () => {
    instance = await testInstance({ limits: limits(100) });
    const { key } = await instance.accountWithKey("starter");
    const listed = (await (await mcp(key, "tools/list", {})).json()) as { result: { tools: { name: string }[] } };
    expect(listed.result.tools.map((tool) => tool.name)).toContain("rate-lookup-batch");

    const lanes = [
      { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" },
      { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "SPACESHIP" },
    ];
    const submitted = (await (
      await mcp(key, "tools/call", { name: "rate-lookup-batch", arguments: { lanes } })
    ).json()) as {
      result: { structuredContent: { job_id: string; receipt_id: string } };
    };
    const { job_id, receipt_id } = submitted.result.structuredContent;
    expect(receipt_id).toMatch(/^rcpt_/);
    await instance.runtime.batchRunner.idle();
    const results = (await (
      await mcp(key, "tools/call", { name: "rate-lookup-batch-results", arguments: { job_id } })
    ).json()) as { result: { structuredContent: { status: string; rows: Record<string, unknown>[] } } };
    expect(results.result.structuredContent.status).toBe("done");
    expect(results.result.structuredContent.rows[0]?.receipt_id).toMatch(/^rcpt_/);
    expect(results.result.structuredContent.rows[1]?.error).toBe("INVALID_REQUEST");

    const skills = (await (await instance.call("/v1/skills", { key })).json()) as { skills: Record<string, unknown>[] };
    expect(skills.skills.find((skill) => skill.name === "rate-lookup")?.batch_path).toBe("/v1/rates/batch");
  });

  test("the agent guide explains bid sheets", async () => {
    instance = await testInstance();
    const guide = await (await instance.call("/docs/agents.md")).text();
    expect(guide).toContain("/v1/rates/batch");
  });
});
