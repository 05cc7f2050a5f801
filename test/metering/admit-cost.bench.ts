// What the limiter adds to a call: `bun test/metering/admit-cost.bench.ts`. Not a test (no timings are asserted anywhere).
import { openMemoryDatabase } from "../../src/db/client.ts";
import { createMemoryMeter } from "../../src/metering/create-meter.ts";
import { parseLimits } from "../../src/metering/limits.ts";
import { seedPrincipal } from "../support/accounts.ts";
import { defined } from "../support/defined.ts";

const db = openMemoryDatabase();
const now = Date.parse("2026-03-10T12:00:30Z");

function measure(name: string, calls: number, run: (i: number) => void): void {
  for (let i = 0; i < Math.min(calls, 10_000); i++) run(i); // warm up
  const started = Bun.nanoseconds();
  for (let i = 0; i < calls; i++) run(i);
  const nsPerCall = (Bun.nanoseconds() - started) / calls;
  console.log(`${name.padEnd(58)} ${nsPerCall.toFixed(0).padStart(6)} ns/call`);
}

const roomy = createMemoryMeter({
  db,
  limits: parseLimits('{"enterprise":{"per_minute":1000000000,"per_month":1000000000}}'),
});
const principals = Array.from({ length: 100 }, () => seedPrincipal(db, { tier: "enterprise" }));
measure("admit, let through (100 keys), + release", 1_000_000, (i) =>
  roomy.admit(defined(principals[i % 100], "principals[i % 100]"), now + (i % 1000)).release(),
);

const tight = createMemoryMeter({ db, limits: parseLimits('{"explorer":{"per_minute":3,"per_month":1000}}') });
const throttled = seedPrincipal(db, { tier: "explorer" });
for (let i = 0; i < 3; i++) tight.admit(throttled, now);
measure("admit, refused by the minute window (throws the 429)", 200_000, () => {
  try {
    tight.admit(throttled, now);
  } catch {}
});
measure("peek (headers only)", 1_000_000, () => tight.peek(throttled, now));
measure("admission.commit(db) in its own transaction (for scale)", 20_000, (i) => {
  const admission = roomy.admit(defined(principals[i % 100], "principals[i % 100]"), now);
  db.$client.transaction(() => admission.commit(db)).immediate();
});
