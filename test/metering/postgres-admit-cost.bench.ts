// What admission costs on PostgreSQL (docs/postgresql.md, "Metering across replicas"):
// `bun test/metering/postgres-admit-cost.bench.ts`. Not a test (nothing is asserted). Starts a
// throw-away cluster with production durability (fsync and synchronous commit on) and times the
// one statement each call makes before its handler, alone and with 32 calls in flight, next to a
// bare `SELECT 1` (the round trip itself) on the same pool, at per-minute limits of 5, 200 and
// 1,000,000. Each key calls at its limit's pace (at most 500 a second) and its minute row is
// filled beforehand with the minute before the first timed call, so the row is as large as it
// gets in steady use: 5 single calls at 5, one group per second (61) at 200 and 1,000,000.
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import type { Principal } from "../../src/access/principal.ts";
import { openStore } from "../../src/db/open.ts";
import type { PostgresStore } from "../../src/db/postgres.ts";
import { createPostgresMeter } from "../../src/metering/postgres-meter.ts";
import { parseLimits } from "../../src/metering/limits.ts";
import { startPostgres } from "../support/postgres.ts";
import { defined } from "../support/defined.ts";

const CALLS = Number(process.env.CALLS ?? 2000);
const LIMITS = [5, 200, 1_000_000];
const cluster = await startPostgres({ durable: true });
try {
  const { store, close } = await openStore({ dialect: "postgres", url: cluster.url });
  const pool = (store as PostgresStore).$client;

  const timeEach = async (name: string, run: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 100; i++) await run(i);
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = Bun.nanoseconds();
      await run(i);
      times.push((Bun.nanoseconds() - started) / 1000);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => defined(times[Math.floor(q * (times.length - 1))], "the quantile").toFixed(0);
    console.log(`${name.padEnd(62)} p50 ${at(0.5).padStart(6)} µs   p99 ${at(0.99).padStart(6)} µs`);
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
    console.log(`${name.padEnd(62)} ${(CALLS / seconds).toFixed(0).padStart(6)} calls/s`);
  };
  await timeEach("SELECT 1 (the round trip)", () => pool`SELECT 1`);

  let accounts = 0;
  for (const limit of LIMITS) {
    const meter = createPostgresMeter({
      db: store,
      limits: parseLimits(`{"enterprise":{"per_minute":${limit},"per_month":1000000000}}`),
    });
    const principals: Principal[] = [];
    for (let n = 0; n < 32; n++) {
      const account = await createAccount(
        store,
        { email: `bench${++accounts}@example.test`, tier: "enterprise" },
        Date.now(),
      );
      const issued = await issueKey(store, account.id, null, Date.now());
      principals.push({
        accountId: account.id,
        keyId: issued.record.id,
        authObjId: issued.record.authObjId,
        tier: "enterprise",
        scopes: null,
      });
    }
    const spacing = Math.max(60_000 / limit, 2); // ms of simulated time between a key's calls
    const start = Date.now();
    for (const principal of principals) await fillMinuteBefore(principal, start, spacing);

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
    const calls = new Map<string, number>();
    /** The next instant of this key: `spacing` after its previous call. */
    const now = (principal: Principal) => {
      const n = (calls.get(principal.keyId) ?? 0) + 1;
      calls.set(principal.keyId, n);
      return start + n * spacing;
    };
    const [row] =
      await pool`SELECT cardinality(admitted) AS groups FROM minute_windows WHERE key_id = ${defined(principals[0], "principals[0]").keyId}`;
    console.log(`limit ${limit}/min, a call every ${spacing} ms: the row holds ${row.groups} groups`);
    await timeEach(`  admit, one key, 1 at a time`, () => admitOnce(defined(principals[0], "principals[0]")));
    await throughput(`  admit, 32 in flight over 32 keys`, (i) =>
      admitOnce(defined(principals[i % 32], "principals[i % 32]")),
    );
    await throughput(`  admit, 32 in flight on one key (its row lock serialises)`, () =>
      admitOnce(defined(principals[1], "principals[1]")),
    );
    console.log(`  refused along the way: ${refused}`);
    await meter.close();
  }
  await close();

  /** The key's row as a minute of calls every `spacing` ms before `start` leaves it (one group per call, or per second above 60 a minute). */
  async function fillMinuteBefore(principal: Principal, start: number, spacing: number) {
    await pool`INSERT INTO minute_windows (key_id, admitted, calls)
      SELECT ${principal.keyId}, array_agg(at ORDER BY at), array_agg(n ORDER BY at)
      FROM (SELECT max(at) AS at, count(*)::int AS n
        FROM (SELECT (${start} - i * ${spacing})::bigint AS at FROM generate_series(0, ceil(60000 / ${spacing})::int - 1) AS i) AS call
        GROUP BY CASE WHEN ${spacing} < 1000 THEN at / 1000 ELSE at END) AS grouped`;
  }
} finally {
  await cluster.stop();
}
