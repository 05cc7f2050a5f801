import { afterEach, describe, expect, test } from "bun:test";
import Papa from "papaparse";
import { beginJob, listJobs, STORE_CHUNK, storeRows } from "../../src/batch/job-store.ts";
import { sheetFromCsv } from "../../src/batch/sheet.ts";
import { DEFAULT_LIMITS, type LimitsTable } from "../../src/metering/limits.ts";
import { testInstance, type TestInstance } from "../support/instance.ts";

let instance: TestInstance;
afterEach(() => instance?.stop());

const limits = (perMonth: number): LimitsTable => ({ ...DEFAULT_LIMITS, starter: { perMinute: 60, perMonth } });
const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
const count = (sql: string, ...params: string[]) => (instance.db.$client.query(sql).get(...params) as { n: number }).n;

describe("storing a sheet", () => {
  test("a sheet of several chunks is stored whole, in order, and priced once", async () => {
    instance = await testInstance({ limits: limits(1_000) });
    const { key } = await instance.accountWithKey("starter");
    const lanes = Array.from({ length: STORE_CHUNK * 2 + 7 }, (_, index) => ({ ref: `R${index + 1}`, ...LANE }));
    const csv = Papa.unparse(lanes);
    const submitted = await instance.call("/v1/rates/batch", {
      method: "POST",
      key,
      headers: { "content-type": "text/csv" },
      body: csv,
    });
    expect(submitted.status).toBe(202);
    const { job_id, status_url } = (await submitted.json()) as { job_id: string; status_url: string };

    const stored = instance.db.$client
      .query("SELECT count(*) AS n, min(row) AS first, max(row) AS last FROM batch_rows WHERE job_id = ?")
      .get(job_id);
    expect(stored).toEqual({ n: lanes.length, first: 1, last: lanes.length });
    const boundary = instance.db.$client
      .query("SELECT cells FROM batch_rows WHERE job_id = ? AND row = ?")
      .get(job_id, STORE_CHUNK + 1) as { cells: string };
    expect(JSON.parse(boundary.cells).ref).toBe(`R${STORE_CHUNK + 1}`);

    await instance.runtime.batchRunner.idle();
    expect(await (await instance.call(status_url, { key })).json()).toMatchObject({
      status: "done",
      done: lanes.length,
      total: lanes.length,
    });
    const laneReceipts = count("SELECT count(*) AS n FROM receipts WHERE request_id LIKE ?", `${job_id}/%`);
    expect(laneReceipts).toBe(lanes.length);
  });

  test("an upload a stop interrupted is never priced nor shown, holds its lanes, and goes at the next start", async () => {
    instance = await testInstance({ limits: limits(10) });
    const { key, accountId } = await instance.accountWithKey("starter");
    const { id: keyId } = instance.db.$client.query("SELECT id FROM api_keys WHERE account_id = ?").get(accountId) as {
      id: string;
    };
    // As if the process had stopped after the first of two chunks: the job is still storing.
    const rows = Array.from({ length: 8 }, () => ({ ...LANE }));
    const sheet = { format: "json" as const, columns: Object.keys(LANE), rows };
    const jobId = "job_interrupted";
    await beginJob(instance.db, { id: jobId, accountId, keyId, fileName: null, sheet, now: instance.clock.now() });
    await storeRows(instance.db, jobId, 1, rows.slice(0, 4));

    instance.runtime.batchRunner.wake();
    await instance.runtime.batchRunner.idle();
    expect(count("SELECT count(*) AS n FROM batch_rows WHERE job_id = ? AND outcome IS NOT NULL", jobId)).toBe(0);
    expect(count("SELECT count(*) AS n FROM receipts WHERE request_id LIKE ?", `${jobId}/%`)).toBe(0);
    expect((await instance.call(`/v1/rates/batch/${jobId}`, { key })).status).toBe(404);
    expect(await listJobs(instance.db, accountId)).toEqual([]);

    // Its 8 lanes are promised: 2 of the month's 10 are left for another sheet.
    const three = { lanes: [LANE, LANE, LANE] };
    const refused = await instance.call("/v1/rates/batch", { method: "POST", key, json: three });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ window: "month", lanes_needed: 3, lanes_left: 2 });

    await instance.runtime.batchRunner.resume();
    expect(count("SELECT count(*) AS n FROM batch_jobs WHERE id = ?", jobId)).toBe(0);
    expect(count("SELECT count(*) AS n FROM batch_rows WHERE job_id = ?", jobId)).toBe(0);
    const accepted = await instance.call("/v1/rates/batch", { method: "POST", key, json: three });
    expect(accepted.status).toBe(202);
  });
});

describe("reading a CSV sheet a slice at a time", () => {
  test("a sheet of many slices, with quoted cells across line breaks, reads as one parse would", async () => {
    const header = "ref,origin,destination,equipment,note";
    const lines = Array.from(
      { length: 3_000 },
      (_, index) => `R${index + 1},"Chicago, IL","Dallas, TX",dry van,"line one\nline ""two"" of ${index + 1}"`,
    );
    const text = [header, ...lines].join("\r\n");
    expect(text.length).toBeGreaterThan(3 * 64 * 1024); // several slices
    const sheet = await sheetFromCsv(text);
    const whole = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: "greedy" });
    expect(sheet.columns).toEqual(header.split(","));
    expect(sheet.rows).toEqual(whole.data);
    expect(sheet.rows[2_999]?.note).toBe('line one\nline "two" of 3000');
  });

  test("a broken quote is refused with the line it is on, wherever the slice boundaries fall", async () => {
    for (const broken of [3, 1_500, 2_999]) {
      const lines = Array.from({ length: 3_000 }, (_, index) =>
        index + 1 === broken ? '"Chicago, I"L",Dallas TX,DRY_VAN' : '"Chicago, IL","Dallas, TX",DRY_VAN',
      );
      const refusal = sheetFromCsv(["origin,destination,equipment", ...lines].join("\n"));
      // The header is line 1, so data row n is line n + 1.
      await expect(refusal).rejects.toMatchObject({
        extra: { details: [{ problem: expect.stringContaining(`row ${broken + 1}:`) }] },
      });
    }
  });
});
