// A 10,000-lane bid sheet priced with receipts through POST /v1/rates/batch on a real port over a
// real SQLite file, while a second key sends ordinary rate-lookup calls at a fixed rate; prints the
// sheet's wall time and the p50/p99 of those other calls while it ran (docs/benchmarks.md,
// "Bid sheets"). Run it on one core: `taskset -c 0 bun test/bench/batch-sheet.ts`.
// LANES (default 10000) and OTHER_PER_SECOND (default 50) size it. Not a test: nothing is asserted.
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

const LANES = Number(process.env.LANES ?? 10_000);
const OTHER_PER_SECOND = Number(process.env.OTHER_PER_SECOND ?? 50);
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

// Warm the lanes' road routes and the other calls' path, as a running server would be.
await fetch(`${base}/v1/rates/lookup`, {
  method: "POST",
  headers: { authorization: `Bearer ${otherKey}`, "content-type": "application/json" },
  body: JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" }),
});

const body = bidSheet(LANES);
const latencies: number[] = [];
let pricing = true;
const others: Promise<void>[] = [];
const otherLoop = (async () => {
  const gap = 1000 / OTHER_PER_SECOND;
  for (let i = 0; pricing; i++) {
    const started = performance.now();
    others.push(
      fetch(`${base}/v1/rates/lookup`, {
        method: "POST",
        headers: { authorization: `Bearer ${otherKey}`, "content-type": "application/json" },
        body: JSON.stringify({ origin: CITIES[i % CITIES.length], destination: "Denver, CO", equipment: "REEFER" }),
      }).then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 200) latencies.push(performance.now() - started);
      }),
    );
    await Bun.sleep(Math.max(0, gap - (performance.now() - started)));
  }
})();

const submittedAt = performance.now();
const submitted = await fetch(`${base}/v1/rates/batch`, {
  method: "POST",
  headers: { authorization: `Bearer ${sheetKey}`, "content-type": "text/csv" },
  body,
});
const { status_url } = (await submitted.json()) as { status_url: string };
await runtime.batchRunner.idle();
const pricedMs = performance.now() - submittedAt;
pricing = false;
await otherLoop;
await Promise.all(others);

const status = (await (
  await fetch(base + status_url, { headers: { authorization: `Bearer ${sheetKey}` } })
).json()) as {
  status: string;
  done: number;
};
const receipts = db.$client.query("SELECT count(*) AS n FROM receipts WHERE skill = 'rate-lookup'").get() as {
  n: number;
};
latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      lanes: LANES,
      body_bytes: body.length,
      status: status.status,
      settled: status.done,
      lane_receipts: receipts.n,
      sheet_seconds: Number((pricedMs / 1000).toFixed(2)),
      lanes_per_second: Math.round(LANES / (pricedMs / 1000)),
      other_calls: latencies.length,
      other_p50_ms: Number(percentile(latencies, 0.5)?.toFixed(1)),
      other_p99_ms: Number(percentile(latencies, 0.99)?.toFixed(1)),
    },
    null,
    2,
  ),
);
await app.stop(true);
await runtime.close();
db.$client.close();
rmSync(dir, { recursive: true, force: true });
