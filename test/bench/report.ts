// Turn one benchmark run's files (.tmp/bench/<time>/) into the results table: medians over the
// rounds, the ratios of answered calls to the bare Elysia route and the durable floor (run one after
// the other, and side by side), the fixed-rate p99. Prints it, and with a page path (docs/benchmarks.md)
// writes it between the bench markers (keeping the soak line there).
// `bun test/bench/report.ts OUT_DIR [docs/benchmarks.md]`
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_MARKERS, ensureBlock, replaceBetween, SOAK_MARKERS, textBetween } from "./results-block.ts";

const [outDir, page] = process.argv.slice(2);
if (!outDir) throw new Error("usage: report.ts OUT_DIR [docs/benchmarks.md]");

interface Run {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  cpuMicrosPerRequest: number;
}

const millis = (text: string | undefined) => {
  const match = text?.match(/([\d.]+)(us|ms|s)\b/);
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "ms" ? value : value * 1000;
};

function parseWrk(text: string): Run {
  const requests = Number(text.match(/(\d+) requests in/)?.[1]);
  return {
    rps: Number(text.match(/Requests\/sec:\s+([\d.]+)/)?.[1]),
    p50: millis(text.match(/^\s+50%\s+(\S+)/m)?.[1]),
    p99: millis(text.match(/^\s+99%\s+(\S+)/m)?.[1]),
    requests,
    non2xx: Number(text.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    // CLK_TCK is 100: one tick is 10 ms
    cpuMicrosPerRequest: (Number(text.match(/server_cpu_ticks (\d+)/)?.[1]) * 10_000) / requests,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN; // no values: no median
  return sorted.length % 2 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
};

const runs = new Map<string, Run[]>();
for (const file of readdirSync(outDir).filter((f) => f.endsWith(".wrk"))) {
  const [name, conns] = file.split(".");
  const key = `${name}.${conns}`;
  runs.set(key, [...(runs.get(key) ?? []), parseWrk(readFileSync(join(outDir, file), "utf8"))]);
}
const summary = (key: string) => {
  const list = runs.get(key) ?? [];
  const pick = (field: keyof Run) => median(list.map((run) => run[field]));
  return {
    rounds: list.length,
    rps: pick("rps"),
    p50: pick("p50"),
    p99: pick("p99"),
    cpu: pick("cpuMicrosPerRequest"),
    non2xx: list.reduce((sum, run) => sum + run.non2xx, 0),
    requests: list.reduce((sum, run) => sum + run.requests, 0),
  };
};

const LABELS: Record<string, string> = {
  answered: "(1) answered rate lookup, one lane asked again (kept answer)",
  distinct: "(1b) answered rate lookup, a new question nearly every call",
  minute: "(2) refused by the minute window (429)",
  unknown: "(3) unknown well-formed key (401)",
  bare: "bare Elysia POST, same body, no work",
  floor: "durable floor: same body, hashed, one row, group commit, fsync",
};
const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const rows: string[] = [
  "| scenario | conns | req/s | p50 ms | p99 ms | server CPU µs/req | non-2xx |",
  "|---|---:|---:|---:|---:|---:|---:|",
];
for (const name of Object.keys(LABELS)) {
  for (const conns of ["c32", "c1"]) {
    const s = summary(`${name}.${conns}`);
    if (s.rounds === 0) continue;
    const non2xx = s.non2xx === s.requests ? "all" : String(s.non2xx);
    rows.push(
      `| ${LABELS[name]} | ${conns.slice(1)} | ${fmt(s.rps)} | ${fmt(s.p50, 2)} | ${fmt(s.p99, 2)} | ${fmt(s.cpu)} | ${non2xx} |`,
    );
  }
}
const ratio = (conns: string, base = "bare", answered = "answered") =>
  summary(`${answered}.${conns}`).rps / summary(`${base}.${conns}`).rps;
const cpuRatio = (base: string, answered = "answered") => summary(`${base}.c32`).cpu / summary(`${answered}.c32`).cpu;
/** A JSON file of the run, or null when this run did not write it (older runs). */
const optional = <T>(name: string): T | null => {
  try {
    return JSON.parse(readFileSync(join(outDir, name), "utf8")) as T;
  } catch {
    return null;
  }
};
/**
 * The side-by-side rounds against `base` (answered calls and `base` driven at once): per round, the
 * answered calls over the denominator's, and the denominator's CPU per call over the answered call's.
 */
const sideBySide = (base: string) =>
  readdirSync(outDir)
    .filter((file) => file.startsWith(`side-${base}.`) && file.endsWith(".answered.txt"))
    .map((file) => {
      const answered = parseWrk(readFileSync(join(outDir, file), "utf8"));
      const denominator = parseWrk(readFileSync(join(outDir, file.replace(/answered\.txt$/, "base.txt")), "utf8"));
      return {
        calls: answered.requests / denominator.requests,
        cpu: denominator.cpuMicrosPerRequest / answered.cpuMicrosPerRequest,
      };
    });
const sideBySideLine = (base: string, label: string) => {
  const rounds = sideBySide(base);
  if (rounds.length === 0) return [];
  const list = (field: "calls" | "cpu") =>
    `**${fmt(median(rounds.map((round) => round[field])), 3)}** (${rounds.map((round) => fmt(round[field], 3)).join(", ")})`;
  return [`answered / ${label}: answered calls ${list("calls")}, CPU per call ${list("cpu")}`];
};
const sideBySideRatios = [...sideBySideLine("floor", "durable floor"), ...sideBySideLine("bare", "bare Elysia")];
const storage = optional<{ receipts: number; bytes_per_receipt: number; answered_only: number }>("storage.json");
interface FixedRate {
  rate: number;
  requests: number;
  failures: number;
  achieved_per_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}
interface Quantiles {
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
}
const fixed = JSON.parse(readFileSync(join(outDir, "fixed-rate.json"), "utf8")) as FixedRate;
const fixedBaselines = (["floor", "bare"] as const).flatMap((name) => {
  const run = optional<FixedRate>(`fixed-rate-${name}.json`);
  return run
    ? [
        `${name === "floor" ? "the durable floor" : "bare Elysia"} p50 ${run.p50_ms} / p99 ${run.p99_ms} / max ${run.max_ms} ms`,
      ]
    : [];
});
const fsync = optional<{ syncs: number; batch_bytes: number; reused: Quantiles; growing: Quantiles }>("fsync.json");
const machine = readFileSync(join(outDir, "machine.txt"), "utf8").trim().split("\n");
const rounds = summary("answered.c32").rounds;

const table = [
  `Run ${outDir.split("/").pop()} (medians of ${rounds} interleaved rounds; ${machine.join("; ")}):`,
  "",
  ...rows,
  "",
  `- **ratio answered / bare Elysia: ${fmt(ratio("c32"), 3)} at 32 connections, ${fmt(ratio("c1"), 3)} at 1 connection** (server CPU per call: ${fmt(cpuRatio("bare"), 3)} of the answered call's); **p99 at 32 connections: answered ${fmt(summary("answered.c32").p99, 1)} ms**, bare Elysia ${fmt(summary("bare.c32").p99, 1)} ms (the machine's own tail).`,
  `- **ratio answered / durable floor: ${fmt(ratio("c32", "floor"), 3)} at 32 connections, ${fmt(ratio("c1", "floor"), 3)} at 1 connection** (server CPU per call: ${fmt(cpuRatio("floor"), 3)}).`,
  ...(sideBySideRatios.length > 0
    ? [
        `- **side by side** (answered calls and the denominator driven at once, 32 connections each, both servers sharing core 0, so a spell of the machine falls on both; CPU per call is the denominator's over the answered call's; medians, then each round): ${sideBySideRatios.join("; ")}.`,
      ]
    : []),
  `- the same ratios for new questions (1b): **${fmt(ratio("c32", "bare", "distinct"), 3)} of bare Elysia and ${fmt(ratio("c32", "floor", "distinct"), 3)} of the durable floor at 32 connections** (server CPU per call: ${fmt(cpuRatio("bare", "distinct"), 3)} and ${fmt(cpuRatio("floor", "distinct"), 3)}).`,
  ...(storage
    ? [
        `- **storage**: ${storage.answered_only} bytes per receipt after the run (${storage.receipts} receipts; receipt with the call's usage, shared parts, tiles, checkpoints and their indexes); ${storage.bytes_per_receipt} counting the usage rows of the run's refused calls too.`,
      ]
    : []),
  `- **fixed ${fixed.rate} req/s of answered calls** (open loop, test/bench/fixed-rate.ts, ${fixed.requests} requests, ${fixed.failures} failed, ${fixed.achieved_per_s} req/s achieved): p50 ${fixed.p50_ms} ms, **p99 ${fixed.p99_ms} ms**, max ${fixed.max_ms} ms${fixedBaselines.length > 0 ? `; at the same rate ${fixedBaselines.join(", ")}` : ""}.`,
  ...(fsync
    ? [
        `- **the disk's fsync** (test/bench/fsync-latency.ts, ${fsync.syncs} fdatasyncs of ${Math.round(fsync.batch_bytes / 1024)} KiB batches): p50 ${fsync.reused.p50_ms} / p99 ${fsync.reused.p99_ms} / max ${fsync.reused.max_ms} ms into a reused file, p50 ${fsync.growing.p50_ms} / p99 ${fsync.growing.p99_ms} ms into a growing one.`,
      ]
    : []),
].join("\n");
console.log(table);

if (page) {
  ensureBlock(page, "Benchmark", ...BENCH_MARKERS);
  const soak = textBetween(page, ...SOAK_MARKERS) || "- soak: not run yet (`bash test/bench/soak.sh`).";
  replaceBetween(page, ...BENCH_MARKERS, `${table}\n\n${SOAK_MARKERS[0]}\n${soak}\n${SOAK_MARKERS[1]}`);
  console.log(`\nwritten to ${page}`);
}
