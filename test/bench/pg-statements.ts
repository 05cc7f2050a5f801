// Where PostgreSQL's time goes per answered lookup (`bun test/bench/pg-statements.ts --replicas 3`):
// N replicas of the compiled binary on a throw-away cluster (fsync on) with pg_stat_statements, the
// replica bench's closed loop (32 connections, 8 keys), then the statements per answer with their
// execution time, and the wait events of the server's active backends sampled every 20 ms (lock
// waits on the receipt log, a backend waiting for its replica, WAL syncs). `--cpu-prof DIR` also
// writes each replica's CPU profile there (Bun's --cpu-prof-md). Bounded: 2 s warm-up + --seconds
// (default 6) of load, loopback only, everything it starts is stopped. docs/postgresql.md, "Round
// trips and CPU per answer", reads it.
import { SQL } from "bun";
import { parseArgs } from "node:util";
import { ensureBinary } from "../support/binary.ts";
import { startPostgres } from "../support/postgres.ts";
import { accountKeyOn, cliOn, startReplicas } from "../support/replicas.ts";
import { closedLoop, cpuTicksOf, cpuTicksOfTree } from "./closed-loop.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    replicas: { type: "string", default: "3" },
    seconds: { type: "string", default: "6" },
    "cpu-prof": { type: "string" },
  },
});
const replicas = Number(values.replicas);
const seconds = Number(values.seconds);
if (!(Number.isInteger(replicas) && replicas > 0 && replicas <= 8 && seconds > 0 && seconds <= 60)) {
  console.error("usage: pg-statements.ts [--replicas 1-8] [--seconds 1-60] [--cpu-prof DIR]");
  process.exit(2);
}

const LIMITS = JSON.stringify({ enterprise: { per_minute: 100_000_000, per_month: 1_000_000_000 } });
const BODY = JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" });
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux
const exe = await ensureBinary();
const cluster = await startPostgres({
  durable: true,
  settings: {
    max_connections: 100,
    shared_preload_libraries: "'pg_stat_statements'",
    "pg_stat_statements.track": "all",
  },
});
try {
  const cwd = cluster.folder;
  cliOn(exe, cluster.url, cwd, ["migrate"]);
  const keys = Array.from({ length: 8 }, (_, i) =>
    accountKeyOn(exe, cluster.url, cwd, `stmts${i + 1}@example.com`, "enterprise"),
  );
  const profile: Record<string, string> = values["cpu-prof"]
    ? { BUN_OPTIONS: `--cpu-prof-md --cpu-prof-dir=${values["cpu-prof"]}` }
    : {};
  const set = await startReplicas(exe, replicas, cluster.url, {
    cwd,
    env: { WAYBILL_LIMITS: LIMITS, WAYBILL_LOG_LEVEL: "warn", WAYBILL_OFFLINE: "1", ...profile },
  });
  const admin = new SQL(cluster.url);
  try {
    await admin`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    const load = { urls: set.replicas.map((r) => r.url), path: "/v1/rates/lookup", keys, body: BODY, connections: 32 };
    await closedLoop({ ...load, seconds: 2 });
    await admin`SELECT pg_stat_statements_reset()`;
    const pids = set.replicas.map((replica) => replica.process.pid);
    const before = { waybill: cpuTicksOf(pids), postgres: cpuTicksOfTree(cluster.serverPid()) };
    const waits = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows =
          await admin`SELECT coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS wait, left(query, 48) AS query
          FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`;
        for (const row of rows)
          waits.set(`${row.wait}  ${row.query}`, (waits.get(`${row.wait}  ${row.query}`) ?? 0) + 1);
        await Bun.sleep(20);
      }
    })();
    const result = await closedLoop({ ...load, seconds });
    sampling = false;
    await sampler;
    const us = (ticks: number) => Math.round(((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / Math.max(1, result.answered));
    console.log(
      `${replicas} replica(s): ${result.answeredPerSecond} answered/s, p99 ${result.p99Ms} ms; CPU per answer: Waybill ${us(cpuTicksOf(pids) - before.waybill)} µs, PostgreSQL ${us(cpuTicksOfTree(cluster.serverPid()) - before.postgres)} µs`,
    );
    const statements =
      await admin`SELECT calls, total_exec_time AS ms, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 80) AS query
      FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat%' ORDER BY calls DESC LIMIT 20`;
    console.log("\nper answer  exec µs each  statement");
    for (const row of statements)
      console.log(
        `${(Number(row.calls) / result.answered).toFixed(3).padStart(10)}  ${((Number(row.ms) * 1000) / Number(row.calls)).toFixed(1).padStart(12)}  ${row.query}`,
      );
    console.log("\nsamples  wait  statement");
    for (const [what, n] of [...waits].sort((a, b) => b[1] - a[1]).slice(0, 15))
      console.log(`${String(n).padStart(7)}  ${what}`);
  } finally {
    await admin.close();
    await set.stop();
  }
} finally {
  await cluster.stop();
}
