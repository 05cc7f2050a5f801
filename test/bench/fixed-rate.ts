// Open-loop load at a fixed rate (wrk2 is not packaged in Debian): request i is due at start + i/RATE
// and its latency is measured from that due time, not from when it was sent, so a server stall is
// charged to every request that should have gone out during it (no coordinated omission).
// Requests go out over raw keep-alive sockets (keep-alive-sender.ts), due times are checked every
// 0.1 ms rather than on 1 ms sleeps, and each request asks for compression as `fetch` does.
// Bounded: RATE × SECONDS requests, at most MAX_SOCKETS sockets, loopback only.
// `bun test/bench/fixed-rate.ts URL KEY [RATE=1000] [SECONDS=20]` → one JSON line, with the server's
// group-commit stages during the run (from /metrics: waybill_group_commit_stage_seconds, bucket
// upper bounds in ms) and its event-loop delay (waybill_event_loop_delay_*_seconds) when it exposes
// them (docs/performance.md). With TRACE_FILE set, each request's due time (Unix ms) and latency (ms)
// are written there as CSV lines, for test/bench/gc-timeline.ts.
import { KeepAliveSender } from "./keep-alive-sender.ts";
import { defined } from "../support/defined.ts";

const [url, key, rateArg = "1000", secondsArg = "20"] = process.argv.slice(2);
if (!url || !key || !new URL(url).hostname.match(/^(127\.0\.0\.1|localhost)$/)) {
  console.error("usage: fixed-rate.ts http://127.0.0.1:PORT/path KEY [RATE] [SECONDS]");
  process.exit(2);
}
const rate = Number(rateArg);
const total = Math.round(rate * Number(secondsArg));
const MAX_SOCKETS = 256;
const body = JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" });
const target = new URL(url);
const request = Buffer.from(
  [
    `POST ${target.pathname} HTTP/1.1`,
    `Host: ${target.host}`,
    "Accept: */*",
    "Accept-Encoding: gzip, deflate, br, zstd",
    `Authorization: Bearer ${key}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "",
    body,
  ].join("\r\n"),
);

const STAGES = /^waybill_group_commit_stage_seconds_bucket\{le="([^"]+)",stage="(\w+)"\} (\d+)$/;
const LOOP_DELAY = /^waybill_event_loop_delay_(p50|p90|p99|max)_seconds (\S+)$/;

/** The server's /metrics text, or null when it has none. */
async function scrape(): Promise<string | null> {
  const response = await fetch(new URL("/metrics", url), { signal: AbortSignal.timeout(5_000) }).catch(() => null);
  return response?.ok ? response.text() : null;
}

/** Cumulative bucket counts per stage, or null when the server has no such metrics. */
function stageBuckets(metrics: string | null): Map<string, [number, number][]> | null {
  const stages = new Map<string, [number, number][]>();
  for (const line of metrics?.split("\n") ?? []) {
    const [, le, stage, count] = STAGES.exec(line) ?? [];
    if (le === undefined || stage === undefined) continue;
    const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le) * 1000;
    stages.set(stage, [...(stages.get(stage) ?? []), [bound, Number(count)]]);
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
    const n = defined(counts.at(-1), "the last of counts")[1];
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
let failures = 0;
const sender = new KeepAliveSender(target, request, MAX_SOCKETS, (dueAt, ok) => {
  if (!ok) failures += 1;
  const latency = performance.now() - dueAt;
  latencies.push(latency);
  if (traceFile) trace.push(`${(performance.timeOrigin + dueAt).toFixed(2)},${latency.toFixed(3)}`);
});
await sender.warm();
const start = performance.now();
// Between turns of the event loop the client blocks for NAP_MS in a futex wait: due times are met
// within about that, without the up-to-1 ms lateness of Bun's timers, and without holding the
// whole core as a spinning client does (with one, the server's p99 read higher: docs/performance.md).
const NAP_MS = 0.1;
const napCell = new Int32Array(new SharedArrayBuffer(4));
const nextTurn = () => {
  Atomics.wait(napCell, 0, 0, NAP_MS);
  return new Promise((resolve) => setImmediate(resolve));
};
// A server that stops answering still ends the run: what is unanswered by then counts as failed.
const deadline = start + (total * 2000) / rate + 30_000;
for (let sent = 0; latencies.length < total && performance.now() < deadline; await nextTurn()) {
  const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
  for (; sent < due; sent += 1) sender.send(start + (sent * 1000) / rate);
}
failures += total - latencies.length;
sender.close();

const elapsed = (performance.now() - start) / 1000;
const metricsAfter = stagesBefore ? await scrape() : null;
const stagesAfter = stageBuckets(metricsAfter);
const loopDelayDuring = loopDelay(metricsAfter);
if (traceFile) await Bun.write(traceFile, `${trace.join("\n")}\n`);
latencies.sort((a, b) => a - b);
// null when nothing was answered at all.
const at = (q: number) =>
  latencies.length === 0
    ? null
    : +defined(
        latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))],
        "the latency quantile",
      ).toFixed(2);
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
