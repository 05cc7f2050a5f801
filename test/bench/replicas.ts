// The replica bench (`npm run bench -- --replicas 1,3`): answered rate lookups per second and p99
// for 1 and N replicas of the compiled binary on one PostgreSQL (fsync and synchronous commit on,
// as in production), beside the same binary on its SQLite file, with the CPU each side spent per
// answered call. Closed loop at 32 connections spread round robin; loopback only; bounded: every
// run lasts WARMUP + SECONDS, every process it starts is stopped, and a watchdog ends it after
// 15 minutes whatever happens. Results go to .tmp/bench/replicas-<time>/ and, unless
// KEEP_RESULTS=1, into docs/benchmarks.md between the replicas markers.
// Knobs: --replicas 1,3  --seconds 8 (SECONDS_PER_RUN)  --warmup 15  --connections 32  --rounds 1 (ROUNDS).
// The warm-up is long because each replica's JIT keeps compiling for the first ≈ 15 s of load, and with
// three replicas that is three times the compiling per answer (docs/postgresql.md, "Warm-up").
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startPostgres, type PostgresCluster } from "../support/postgres.ts";
import { accountKeyOn, cliOn, startReplicas, type ReplicaSet } from "../support/replicas.ts";
import { closedLoop, cpuTicksOf, cpuTicksOfTree, type LoadResult } from "./closed-loop.ts";
import { BENCHMARKS_PAGE, ensureBlock, REPLICAS_MARKERS, replaceBetween } from "./results-block.ts";
import { defined } from "../support/defined.ts";

const ROOT = resolve(import.meta.dir, "../..");
const LIMITS = JSON.stringify({ enterprise: { per_minute: 100_000_000, per_month: 1_000_000_000 } });
const BODY = JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" });
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux
// The load comes from several accounts, each with its own key, as on a shared service: one key taking
// every call would measure a single key's minute row being rewritten thousands of times a minute,
// which no tier's limit allows (docs/postgresql.md, "Metering across replicas").
const ACCOUNTS = 8;
const benchKeys = (exe: string, database: string, cwd: string) =>
  Array.from({ length: ACCOUNTS }, (_, i) =>
    accountKeyOn(exe, database, cwd, `bench${i + 1}@example.com`, "enterprise"),
  );

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    replicas: { type: "string", default: "1,3" },
    seconds: { type: "string", default: process.env.SECONDS_PER_RUN ?? "8" },
    warmup: { type: "string", default: "15" },
    connections: { type: "string", default: "32" },
    rounds: { type: "string", default: process.env.ROUNDS ?? "1" },
  },
});
const counts = values.replicas.split(",").map(Number);
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const positive = (n: number) => Number.isInteger(n) && n > 0;
if (
  !counts.every(positive) ||
  !(seconds > 0 && seconds <= 120) ||
  !(warmup >= 0 && warmup <= 30) ||
  !positive(connections) ||
  !positive(rounds)
) {
  console.error("usage: replicas.ts [--replicas 1,3] [--seconds 1-120] [--warmup 0-30] [--connections N] [--rounds N]");
  process.exit(2);
}

interface Scenario {
  name: string;
  replicas: number;
  database: string;
  /** One key per account of the load (ACCOUNTS). */
  keys: string[];
  /** The database server's process (PostgreSQL), whose CPU counts against the scenario too. */
  databasePid?: number;
}

interface Measured extends LoadResult {
  name: string;
  replicas: number;
  /** CPU per answered call, µs: the Waybill processes, and the PostgreSQL server (0 for SQLite). */
  waybillCpuUs: number;
  postgresCpuUs: number;
}

const started: { set?: ReplicaSet; cluster?: PostgresCluster } = {};
async function cleanup() {
  await started.set?.stop();
  await started.cluster?.stop();
}
const watchdog = setTimeout(async () => {
  console.error("replica bench: 15 minutes passed; stopping everything");
  await cleanup();
  process.exit(1);
}, 15 * 60_000);

async function measure(exe: string, dir: string, scenario: Scenario): Promise<Measured> {
  const set = await startReplicas(exe, scenario.replicas, scenario.database, {
    cwd: dir,
    env: { WAYBILL_LIMITS: LIMITS, WAYBILL_LOG_LEVEL: "warn", WAYBILL_OFFLINE: "1" },
  });
  started.set = set;
  try {
    const urls = set.replicas.map((replica) => replica.url);
    const load = { urls, path: "/v1/rates/lookup", keys: scenario.keys, body: BODY, connections };
    if (warmup > 0) await closedLoop({ ...load, seconds: warmup });
    const pids = set.replicas.map((replica) => replica.process.pid);
    const databaseTicks = () => (scenario.databasePid ? cpuTicksOfTree(scenario.databasePid) : 0);
    const before = { waybill: cpuTicksOf(pids), database: databaseTicks() };
    const result = await closedLoop({ ...load, seconds });
    const usPerAnswer = (ticks: number) =>
      Math.round(((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / Math.max(1, result.answered));
    return {
      name: scenario.name,
      replicas: scenario.replicas,
      ...result,
      waybillCpuUs: usPerAnswer(cpuTicksOf(pids) - before.waybill),
      postgresCpuUs: usPerAnswer(databaseTicks() - before.database),
    };
  } finally {
    await set.stop();
    started.set = undefined;
  }
}

const median = (numbers: number[]) =>
  defined([...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)], "the median");

function medianOf(runs: Measured[]): Measured {
  const pick = (field: keyof LoadResult | "waybillCpuUs" | "postgresCpuUs") =>
    median(runs.map((run) => run[field] as number));
  return {
    ...defined(runs[0], "runs[0]"),
    answered: pick("answered"),
    otherStatus: Math.max(...runs.map((run) => run.otherStatus)),
    failed: Math.max(...runs.map((run) => run.failed)),
    answeredPerSecond: pick("answeredPerSecond"),
    p50Ms: pick("p50Ms"),
    p99Ms: pick("p99Ms"),
    waybillCpuUs: pick("waybillCpuUs"),
    postgresCpuUs: pick("postgresCpuUs"),
  };
}

function report(
  runId: string,
  results: Measured[],
  machine: { before: string; after: string; cpus: number; postgres: number },
): string {
  const sqlite = results.find((r) => r.name === "sqlite");
  const onPostgres = (n: number) => results.find((r) => r.name === "postgres" && r.replicas === n);
  const one = onPostgres(1);
  const rows = results.map(
    (r) =>
      `| ${r.name === "sqlite" ? "SQLite file" : `PostgreSQL ${machine.postgres}`} | ${r.replicas} | ${r.answeredPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.waybillCpuUs} | ${r.name === "sqlite" ? "–" : r.postgresCpuUs} | ${r.otherStatus + r.failed} |`,
  );
  const ratios = counts
    .filter((n) => n !== 1 && onPostgres(n) && one)
    .map(
      (n) =>
        `- **${n} replicas / 1 replica on PostgreSQL: ${(defined(onPostgres(n), "onPostgres(n)").answeredPerSecond / defined(one, "one").answeredPerSecond).toFixed(2)}×** answered req/s.`,
    );
  if (one && sqlite)
    ratios.push(
      `- 1 replica on PostgreSQL / the SQLite file: ${(one.answeredPerSecond / sqlite.answeredPerSecond).toFixed(2)}×.`,
    );
  return [
    `Replica run ${runId} (median of ${rounds} round(s), ${seconds} s each after ${warmup} s warm-up, closed loop at ${connections} connections spread round robin, answered rate lookups; ${machine.cpus} cpus; load average before: ${machine.before}, after: ${machine.after}):`,
    "",
    "| database | replicas | answered req/s | p50 ms | p99 ms | Waybill CPU µs/answer | PostgreSQL CPU µs/answer | non-200 |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    ...ratios,
    `- What limits it here: every replica, the PostgreSQL server and the load generator share the same ${machine.cpus} cpus, so adding replicas on one machine adds processes competing for them rather than capacity; the CPU columns show where each answer's time goes. Replicas on their own machines scale until the PostgreSQL server's CPU or commit rate is the limit, or the receipt log's lock, which takes every replica's batches one at a time (docs/postgresql.md).`,
  ].join("\n");
}

async function main() {
  const runId = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
  const out = join(ROOT, ".tmp/bench", `replicas-${runId}`);
  mkdirSync(out, { recursive: true });
  const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  if (build.exitCode !== 0) throw new Error("bun run build failed");
  const exe = join(out, "waybill"); // a private copy: another build in this checkout must not swap it mid-run
  copyFileSync(join(ROOT, "dist/waybill"), exe);
  Bun.spawnSync(["chmod", "+x", exe]);
  const before = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

  const sqliteFile = join(out, "bench.db");
  const scenarios: Scenario[] = [
    { name: "sqlite", replicas: 1, database: sqliteFile, keys: benchKeys(exe, sqliteFile, out) },
  ];
  const cluster = await startPostgres({ durable: true, settings: { max_connections: 50 + 12 * Math.max(...counts) } });
  started.cluster = cluster;
  for (const n of counts) {
    const url = cluster.createDatabase(`bench_${n}`);
    cliOn(exe, url, out, ["migrate"]);
    scenarios.push({
      name: "postgres",
      replicas: n,
      database: url,
      keys: benchKeys(exe, url, out),
      databasePid: cluster.serverPid(),
    });
  }

  const runs = new Map<Scenario, Measured[]>(scenarios.map((scenario) => [scenario, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const scenario of scenarios) {
      const result = await measure(exe, out, scenario);
      defined(runs.get(scenario), "runs.get(scenario)").push(result);
      console.log(
        `round ${round}: ${scenario.name} ×${scenario.replicas}: ${result.answeredPerSecond} answered/s, p99 ${result.p99Ms} ms`,
      );
    }
  }
  await cluster.stop();
  started.cluster = undefined;

  const results = scenarios.map((scenario) => medianOf(defined(runs.get(scenario), "runs.get(scenario)")));
  const after = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  const text = report(runId, results, { before, after, cpus: availableParallelism(), postgres: cluster.major });
  writeFileSync(join(out, "results.json"), JSON.stringify({ runId, results, runs: [...runs.values()] }, null, 2));
  console.log(text);
  if (process.env.KEEP_RESULTS !== "1") {
    ensureBlock(BENCHMARKS_PAGE, "Replicas on PostgreSQL", ...REPLICAS_MARKERS);
    replaceBetween(BENCHMARKS_PAGE, ...REPLICAS_MARKERS, text);
  }
}

try {
  await main();
} finally {
  await cleanup();
  clearTimeout(watchdog);
}
