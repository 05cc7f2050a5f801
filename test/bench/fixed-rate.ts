// Open-loop load at a fixed rate (wrk2 is not packaged in Debian): request i is due at start + i/RATE
// and its latency is measured from that due time, not from when it was sent, so a server stall is
// charged to every request that should have gone out during it (no coordinated omission).
// Bounded: RATE × SECONDS requests, at most MAX_IN_FLIGHT at once, loopback only.
// `bun test/bench/fixed-rate.ts URL KEY [RATE=1000] [SECONDS=20]` → one JSON line.
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

const latencies: number[] = [];
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
    latencies.push(performance.now() - dueAt);
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
  }),
);
