// What admission costs on PostgreSQL (docs/postgresql.md, "Metering across replicas"):
// `bun test/metering/postgres-admit-cost.bench.ts`. Not a test (nothing is asserted). Starts a
// throw-away cluster with production durability (fsync and synchronous commit on) and times the
// one statement each call makes before its handler, alone and with 32 calls in flight, next to a
// bare `SELECT 1` (the round trip itself) on the same pool. Each key runs at the enterprise limit
// (200 a minute, a call every 300 ms of simulated time), so its minute row holds a full window.
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import type { Principal } from "../../src/access/principal.ts";
import { openStore } from "../../src/db/open.ts";
import type { PostgresStore } from "../../src/db/postgres.ts";
import { createMeter } from "../../src/metering/create-meter.ts";
import { parseLimits } from "../../src/metering/limits.ts";
import { startPostgres } from "../support/postgres.ts";

const CALLS = Number(process.env.CALLS ?? 2000);
const cluster = await startPostgres({ durable: true });
try {
  const { store, close } = await openStore({ dialect: "postgres", url: cluster.url });
  const pool = (store as PostgresStore).$client;
  const meter = createMeter({ db: store, limits: parseLimits('{"enterprise":{"per_month":1000000000}}') });
  const principals: Principal[] = [];
  for (let n = 0; n < 32; n++) {
    const account = await createAccount(store, { email: `bench${n}@example.test`, tier: "enterprise" }, Date.now());
    const issued = await issueKey(store, account.id, null, Date.now());
    principals.push({ accountId: account.id, keyId: issued.record.id, authObjId: issued.record.authObjId, tier: "enterprise", scopes: null });
  }

  const timeEach = async (name: string, run: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 100; i++) await run(i);
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = Bun.nanoseconds();
      await run(i);
      times.push((Bun.nanoseconds() - started) / 1000);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(0);
    console.log(`${name.padEnd(58)} p50 ${at(0.5).padStart(6)} µs   p99 ${at(0.99).padStart(6)} µs`);
  };
  const throughput = async (name: string, run: (i: number) => Promise<unknown>) => {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < CALLS) await run(next++);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`${name.padEnd(58)} ${(CALLS / seconds).toFixed(0).padStart(6)} calls/s`);
  };

  let refused = 0;
  /** Admit and let go; a refusal (calls of one key arriving out of order) is counted, not thrown. */
  const admitOnce = (principal: Principal) =>
    Promise.resolve()
      .then(() => meter.admit(principal, now(principal)))
      .then(
        (admission) => admission.release(),
        () => {
          refused += 1;
        },
      );
  const start = Date.now();
  const calls = new Map<string, number>();
  /** The next instant of this key: 300 ms after its previous call. */
  const now = (principal: Principal) => {
    const n = (calls.get(principal.keyId) ?? 0) + 1;
    calls.set(principal.keyId, n);
    return start + n * 300;
  };
  await timeEach("SELECT 1 (the round trip)", () => pool`SELECT 1`);
  await timeEach("admit, one key, 1 at a time", () => admitOnce(principals[0]!));
  await throughput("admit, 32 in flight over 32 keys", (i) => admitOnce(principals[i % 32]!));
  await throughput("admit, 32 in flight on one key (its row lock serialises)", () => admitOnce(principals[1]!));
  console.log(`refused along the way (out-of-order instants of one key): ${refused}`);
  await meter.close();
  await close();
} finally {
  await cluster.stop();
}
