// Open-loop load at a fixed rate (wrk2 is not packaged in Debian): request i is due at start + i/RATE
// and its latency is measured from that due time, not from when it was sent, so a server stall is
// charged to every request that should have gone out during it (no coordinated omission).
// Bounded: RATE × SECONDS requests, at most MAX_IN_FLIGHT at once, loopback only.
// `bun test/bench/fixed-rate.ts URL KEY [RATE=1000] [SECONDS=20]` → one JSON line, with the server's
// group-commit stages during the run (from /metrics: waybill_group_commit_stage_seconds, bucket
// upper bounds in ms) and its event-loop delay (waybill_event_loop_delay_*_seconds) when it exposes
// them (docs/performance.md). With TRACE_FILE set, each request's due time (Unix ms) and latency (ms)
// are written there as CSV lines, for test/bench/gc-timeline.ts.
export {};
const [url, key, rateArg = "1000", secondsArg = "20"] = process.argv.slice(2);
if (!url || !key || !new URL(url).hostname.match(/^(127\.0\.0\.1|localhost)$/)) {
  console.error("usage: fixed-rate.ts http://127.0.0.1:PORT/path KEY [RATE] [SECONDS]");
  process.exit(2);
}
const rate = Number(rateArg);
const total = Math.round(rate * Number(secondsArg));
const MAX_IN_FLIGHT = 256;
const body = JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" });
const headers = { "content-type": "application/json", authorization: `Bearer ${key}` };

const STAGES = /^waybill_group_commit_stage_seconds_bucket\{le="([^"]+)",stage="(\w+)"\} (\d+)$/;
const LOOP_DELAY = /^waybill_event_loop_delay_(p50|p90|p99|max)_seconds (\S+)$/;

/** The server's /metrics text, or null when it has none. */
async function scrape(): Promise<string | null> {
  const response = await fetch(new URL("/metrics", url)).catch(() => null);
  return response?.ok ? response.text() : null;
}

/** Cumulative bucket counts per stage, or null when the server has no such metrics. */
function stageBuckets(metrics: string | null): Map<string, [number, number][]> | null {
  const stages = new Map<string, [number, number][]>();
  for (const line of metrics?.split("\n") ?? []) {
    const match = STAGES.exec(line);
    if (!match) continue;
    const bound = match[1] === "+Inf" ? Number.POSITIVE_INFINITY : Number(match[1]) * 1000;
    stages.set(match[2]!, [...(stages.get(match[2]!) ?? []), [bound, Number(match[3])]]);
  }
  return stages.size > 0 ? stages : null;
}

/** How late the server's event loop ran since the previous scrape (ms: p50, p90, p99 and the longest stall). */
function loopDelay(metrics: string | null): Record<string, number> | null {
  const delays = Object.fromEntries(
    (metrics?.split("\n") ?? []).flatMap((line) => {
      const match = LOOP_DELAY.exec(line);
      return match ? [[`${match[1]}_ms`, +(Number(match[2]) * 1000).toFixed(2)]] : [];
    }),
  );
  return Object.keys(delays).length > 0 ? delays : null;
}

/** Per stage, the bucket bound (ms) under which 50/90/99 % of this run's observations fell. */
function stageQuantiles(before: Map<string, [number, number][]>, after: Map<string, [number, number][]>) {
  const out: Record<string, Record<string, number | string>> = {};
  for (const [stage, buckets] of after) {
    const counts = buckets.map(([bound, count], i) => [bound, count - (before.get(stage)?.[i]?.[1] ?? 0)] as const);
    const n = counts.at(-1)![1];
    const under = (q: number) => {
      const bound = counts.find(([, count]) => count >= n * q)?.[0] ?? Number.POSITIVE_INFINITY;
      return Number.isFinite(bound) ? bound : "inf";
    };
    out[stage] = { n, p50_le_ms: under(0.5), p90_le_ms: under(0.9), p99_le_ms: under(0.99) };
  }
  return out;
}

const stagesBefore = stageBuckets(await scrape()); // also resets the server's event-loop delay window
const latencies: number[] = [];
const traceFile = process.env.TRACE_FILE;
const trace: string[] = [];
let sent = 0;
let inFlight = 0;
let failures = 0;
const start = performance.now();

async function send(dueAt: number): Promise<void> {
  inFlight += 1;
  try {
    const response = await fetch(url!, { method: "POST", headers, body });
    await response.arrayBuffer();
    if (response.status !== 200) failures += 1;
  } catch {
    failures += 1;
  } finally {
    inFlight -= 1;
    const latency = performance.now() - dueAt;
    latencies.push(latency);
    if (traceFile) trace.push(`${(performance.timeOrigin + dueAt).toFixed(2)},${latency.toFixed(3)}`);
  }
}

while (sent < total) {
  const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
  while (sent < due && inFlight < MAX_IN_FLIGHT) {
    void send(start + (sent * 1000) / rate);
    sent += 1;
  }
  await Bun.sleep(1);
}
while (inFlight > 0) await Bun.sleep(5);

const elapsed = (performance.now() - start) / 1000;
const metricsAfter = stagesBefore ? await scrape() : null;
const stagesAfter = stageBuckets(metricsAfter);
const loopDelayDuring = loopDelay(metricsAfter);
if (traceFile) await Bun.write(traceFile, `${trace.join("\n")}\n`);
latencies.sort((a, b) => a - b);
const at = (q: number) => +latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))]!.toFixed(2);
console.log(
  JSON.stringify({
    rate,
    requests: latencies.length,
    failures,
    achieved_per_s: Math.round(latencies.length / elapsed),
    p50_ms: at(0.5),
    p90_ms: at(0.9),
    p99_ms: at(0.99),
    max_ms: at(1),
    ...(stagesBefore && stagesAfter ? { stages: stageQuantiles(stagesBefore, stagesAfter) } : {}),
    ...(loopDelayDuring ? { event_loop_delay: loopDelayDuring } : {}),
  }),
);
