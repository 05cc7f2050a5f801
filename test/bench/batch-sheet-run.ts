// One run of the bid-sheet benchmark (test/bench/batch-sheet.ts runs it several times, each in a
// fresh process): a 10,000-lane sheet priced with receipts through POST /v1/rates/batch on a real
// port over a real SQLite file, while a second key sends ordinary rate-lookup calls at a fixed
// rate. It prints the run's figures as one line of JSON (BatchSheetRun) among the server's log lines. LANES (default
// 10000) and OTHER_PER_SECOND (default 50) size it, FORMAT=xlsx sends it as a workbook; BASELINE_SECONDS (default 3) of the other calls alone come
// first, to show what the machine gives them without a sheet. Not a test: nothing is asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import { createApp } from "../../src/app.ts";
import { systemClock } from "../../src/clock.ts";
import { openDatabase } from "../../src/db/client.ts";
import { DEFAULT_LIMITS, type LimitsTable } from "../../src/metering/limits.ts";
import { createRuntime } from "../../src/runtime.ts";
import { XLSX_MEDIA_TYPE } from "../../src/batch/sheet.ts";
import { workbookOf } from "../../src/batch/xlsx.ts";
import Papa from "papaparse";

/** What one run measured (times since the sheet's submission). */
export interface BatchSheetRun {
  lanes: number;
  format: string;
  bodyBytes: number;
  status: string;
  settled: number;
  /** rate-lookup receipts whose request id names the job: one per priced lane. */
  laneReceipts: number;
  /** Until the 202 arrived (the sheet parsed and stored). */
  acceptedMs: number;
  /** Until every row was settled. */
  sheetSeconds: number;
  otherCalls: number;
  otherP50Ms: number;
  otherP99Ms: number;
  otherMaxMs: number;
  /** The same calls sent alone for BASELINE_SECONDS just before the sheet. */
  baselineCalls: number;
  baselineP50Ms: number;
  baselineP99Ms: number;
  stallsOver10Ms: number;
  longestStall: Stall | null;
  /** The longest stall the process spent mostly running (CPU time at least OWN_SHARE of it): Waybill holding the loop, not the OS running other work. */
  longestOwnStall: Stall | null;
}

interface Stall {
  at: number;
  ms: number;
  cpuMs: number;
}

const LANES = Number(process.env.LANES ?? 10_000);
const FORMAT = process.env.FORMAT === "xlsx" ? "xlsx" : "csv";
const OTHER_PER_SECOND = Number(process.env.OTHER_PER_SECOND ?? 50);
/** How long the other calls are sent alone first, for their latency without a sheet. */
const BASELINE_SECONDS = Number(process.env.BASELINE_SECONDS ?? 3);
const CITIES = [
  "Chicago, IL",
  "Dallas, TX",
  "Atlanta, GA",
  "Los Angeles, CA",
  "Memphis, TN",
  "Columbus, OH",
  "Denver, CO",
  "Seattle, WA",
  "Phoenix, AZ",
  "Newark, NJ",
  "Kansas City, MO",
  "Charlotte, NC",
  "Salt Lake City, UT",
  "Nashville, TN",
  "Fresno, CA",
  "Laredo, TX",
  "Indianapolis, IN",
  "Jacksonville, FL",
  "Harrisburg, PA",
  "Omaha, NE",
];
const EQUIPMENT = ["DRY_VAN", "REEFER", "FLATBED"];

/** A sheet like an RFP: every ordered pair of the cities, each equipment, repeated until LANES rows. */
function bidSheet(lanes: number): string {
  const rows = ["ref,origin,destination,equipment"];
  for (let i = 0; rows.length <= lanes; i++) {
    const origin = CITIES[i % CITIES.length] ?? "";
    const destination = CITIES[(i * 7 + 3) % CITIES.length] ?? "";
    if (origin === destination) continue;
    rows.push(`L${i},"${origin}","${destination}",${EQUIPMENT[i % EQUIPMENT.length]}`);
  }
  return rows.join("\n");
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? null);

const dir = mkdtempSync(join(tmpdir(), "waybill-batch-bench-"));
const db = openDatabase(join(dir, "bench.db"));
const limits: LimitsTable = { ...DEFAULT_LIMITS, enterprise: { perMinute: 100_000, perMonth: 1_000_000 } };
const runtime = await createRuntime({ db, clock: systemClock, limits });
const app = createApp(runtime);
app.listen({ port: 0, hostname: "127.0.0.1" });
const base = `http://127.0.0.1:${app.server?.port}`;
const now = Date.now();
const keyFor = async (email: string) =>
  (await issueKey(db, (await createAccount(db, { email, tier: "enterprise" }, now)).id, null, now)).key;
const sheetKey = await keyFor("sheet@example.com");
const otherKey = await keyFor("other@example.com");
runtime.refreshCaches();

/** The ordinary call sent meanwhile: the i-th city to Denver, reefer. */
const otherCall = (i: number) =>
  fetch(`${base}/v1/rates/lookup`, {
    method: "POST",
    headers: { authorization: `Bearer ${otherKey}`, "content-type": "application/json" },
    body: JSON.stringify({ origin: CITIES[i % CITIES.length], destination: "Denver, CO", equipment: "REEFER" }),
  });

// Warm the other calls' routes and path, as on a server that has been answering them: what is
// measured is what the sheet adds, not their own first lookups.
for (let i = 0; i < CITIES.length; i++) await (await otherCall(i)).arrayBuffer();

/** Ordinary calls at OTHER_PER_SECOND until `done()`: the latency of each answered one goes into `into`. */
async function sendOthers(done: () => boolean, into: number[]): Promise<void> {
  const gap = 1000 / OTHER_PER_SECOND;
  const sent: Promise<void>[] = [];
  for (let i = 0; !done(); i++) {
    const started = performance.now();
    sent.push(
      otherCall(i).then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 200) into.push(performance.now() - started);
      }),
    );
    await Bun.sleep(Math.max(0, gap - (performance.now() - started)));
  }
  await Promise.all(sent);
}

// The same calls with no sheet, just before it: what this machine gives them anyway.
const baseline: number[] = [];
const baselineEnds = performance.now() + BASELINE_SECONDS * 1000;
await sendOthers(() => performance.now() >= baselineEnds, baseline);
baseline.sort((a, b) => a - b);

const csv = bidSheet(LANES);
// FORMAT=xlsx sends the same lanes as an XLSX workbook.
const body =
  FORMAT === "xlsx"
    ? new Uint8Array(
        await workbookOf(
          "Lanes",
          ["ref", "origin", "destination", "equipment"],
          Papa.parse<string[]>(csv, { skipEmptyLines: true }).data.slice(1),
        ),
      )
    : csv;
const latencies: number[] = [];
let pricing = true;
const otherLoop = sendOthers(() => !pricing, latencies);

const submittedAt = performance.now();
// The event loop's stalls while the sheet is priced: a 1 ms timer that fires late by more than
// STALL_MS names the turn that held the loop (at: ms since submission, ms: how long it was late,
// cpuMs: the process's CPU time meanwhile; far less than ms means the OS ran other work instead).
const STALL_MS = 10;
const stalls: Stall[] = [];
let tick = performance.now();
let cpu = process.cpuUsage();
const lagTimer = setInterval(() => {
  const late = performance.now() - tick - 1;
  const used = process.cpuUsage(cpu);
  tick = performance.now();
  cpu = process.cpuUsage();
  if (late > STALL_MS)
    stalls.push({
      at: Math.round(tick - late - submittedAt),
      ms: Math.round(late),
      cpuMs: Math.round((used.user + used.system) / 1000),
    });
}, 1);
const submitted = await fetch(`${base}/v1/rates/batch`, {
  method: "POST",
  headers: { authorization: `Bearer ${sheetKey}`, "content-type": FORMAT === "xlsx" ? XLSX_MEDIA_TYPE : "text/csv" },
  body,
});
const acceptedMs = performance.now() - submittedAt;
const { status_url } = (await submitted.json()) as { status_url: string };
await runtime.batchRunner.idle();
const pricedMs = performance.now() - submittedAt;
pricing = false;
clearInterval(lagTimer);
await otherLoop;

const status = (await (
  await fetch(base + status_url, { headers: { authorization: `Bearer ${sheetKey}` } })
).json()) as {
  status: string;
  done: number;
};
const laneReceipts = db.$client.query("SELECT count(*) AS n FROM receipts WHERE request_id LIKE 'job_%'").get() as {
  n: number;
};
latencies.sort((a, b) => a - b);
const OWN_SHARE = 0.8;
stalls.sort((a, b) => b.ms - a.ms);
const longest = stalls[0];
const longestOwn = stalls.find((stall) => stall.cpuMs >= OWN_SHARE * stall.ms);
const run: BatchSheetRun = {
  lanes: LANES,
  format: FORMAT,
  bodyBytes: typeof body === "string" ? body.length : body.byteLength,
  status: status.status,
  settled: status.done,
  laneReceipts: laneReceipts.n,
  acceptedMs: Math.round(acceptedMs),
  sheetSeconds: Number((pricedMs / 1000).toFixed(2)),
  otherCalls: latencies.length,
  otherP50Ms: Number(percentile(latencies, 0.5)?.toFixed(1)),
  otherP99Ms: Number(percentile(latencies, 0.99)?.toFixed(1)),
  otherMaxMs: Number(latencies.at(-1)?.toFixed(1)),
  baselineCalls: baseline.length,
  baselineP50Ms: Number(percentile(baseline, 0.5)?.toFixed(1)),
  baselineP99Ms: Number(percentile(baseline, 0.99)?.toFixed(1)),
  stallsOver10Ms: stalls.length,
  longestStall: longest ?? null,
  longestOwnStall: longestOwn ?? null,
};
console.log(JSON.stringify(run));
await app.stop(true);
await runtime.close();
db.$client.close();
rmSync(dir, { recursive: true, force: true });
