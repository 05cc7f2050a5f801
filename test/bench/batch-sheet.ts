// The bid-sheet benchmark (docs/benchmarks.md, "Bid sheets"): RUNS (default 5) runs of
// batch-sheet-run.ts, each in a fresh process, one after another; prints each run, then the median
// and range of each figure, and writes them between the batch markers of docs/benchmarks.md
// (KEEP_RESULTS=1 leaves the page alone). Run it on one core: `taskset -c 0 bun test/bench/batch-sheet.ts`
// (the runs inherit the affinity). LANES and OTHER_PER_SECOND pass through to each run.
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import type { BatchSheetRun } from "./batch-sheet-run.ts";
import { BATCH_MARKERS, BENCHMARKS_PAGE, ensureBlock, replaceBetween } from "./results-block.ts";

const RUNS = Number(process.env.RUNS ?? 5);

/** The cpus this process may run on (what `taskset -c` set), as Linux lists them; "all" elsewhere. */
const allowedCpus = () =>
  /Cpus_allowed_list:\s*(\S+)/.exec(
    existsSync("/proc/self/status") ? readFileSync("/proc/self/status", "utf8") : "",
  )?.[1] ?? "all";
const RUN_SCRIPT = resolve(import.meta.dir, "batch-sheet-run.ts");
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

async function oneRun(): Promise<BatchSheetRun> {
  const child = Bun.spawn([process.execPath, RUN_SCRIPT], { stdout: "pipe", stderr: "inherit" });
  const output = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`${RUN_SCRIPT} exited with ${child.exitCode}`);
  // The server's log lines share stdout; the run's figures are its one JSON line.
  const figures = output.split("\n").findLast((line) => line.startsWith("{"));
  if (!figures) throw new Error(`${RUN_SCRIPT} printed no figures`);
  return JSON.parse(figures) as BatchSheetRun;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => {
  const s = sorted(values);
  const middle = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[middle] ?? 0) : ((s[middle - 1] ?? 0) + (s[middle] ?? 0)) / 2;
};
const range = (values: number[]) => `${Math.min(...values)}–${Math.max(...values)}`;
const figure = (label: string, values: number[], unit = "") => {
  const unitAfter = unit === "" ? "" : ` ${unit}`;
  return `| ${label} | ${Number(median(values).toFixed(2))}${unitAfter} | ${range(values)}${unitAfter} |`;
};

/** The rows of the results table: label, what each run measured, unit. */
const FIGURES: [label: string, measure: (run: BatchSheetRun) => number, unit: string][] = [
  ["sheet priced with receipts (submission to last row)", (run) => run.sheetSeconds, "s"],
  ["submission answered (202: parsed and stored)", (run) => run.acceptedMs, "ms"],
  ["other calls answered meanwhile", (run) => run.otherCalls, ""],
  ["their p50", (run) => run.otherP50Ms, "ms"],
  ["**their p99**", (run) => run.otherP99Ms, "ms"],
  ["the same calls alone just before the sheet: p50", (run) => run.baselineP50Ms, "ms"],
  ["the same calls alone just before the sheet: p99", (run) => run.baselineP99Ms, "ms"],
  ["their max", (run) => run.otherMaxMs, "ms"],
  ["event-loop stalls over 10 ms", (run) => run.stallsOver10Ms, ""],
  ["longest stall", (run) => run.longestStall?.ms ?? 0, "ms"],
  ["the process's CPU time during it", (run) => run.longestStall?.cpuMs ?? 0, "ms"],
  [
    "**longest stall Waybill itself held the loop** (its CPU time ≥ 80 % of the stall)",
    (run) => run.longestOwnStall?.ms ?? 0,
    "ms",
  ],
];

const before = load();
const started = new Date();
const runs: BatchSheetRun[] = [];
for (let run = 1; run <= RUNS; run++) {
  const result = await oneRun();
  runs.push(result);
  console.log(`run ${run}: ${JSON.stringify(result)}`);
}
const after = load();
const first = runs[0];
if (!first) throw new Error("RUNS must be at least 1");
const complete = runs.every((run) => run.status === "done" && run.settled === run.lanes);
const pick = (field: (run: BatchSheetRun) => number) => runs.map(field);

const text = [
  `Run of ${started.toISOString().slice(0, 16).replace("T", " ")} UTC: ${RUNS} runs, each in a fresh process on ` +
    `cpu ${allowedCpus()} of the machine's ${cpus().length}, ${first.lanes.toLocaleString("en-US")} lanes (${Math.round(first.bodyBytes / 1000)} KB ` +
    `of ${first.format.toUpperCase()}), other calls at up to ${process.env.OTHER_PER_SECOND ?? 50} a second; ` +
    `load average before: ${before}, after: ${after}.`,
  "",
  "| figure | median | range |",
  "|---|---:|---:|",
  ...FIGURES.map(([label, measure, unit]) => figure(label, pick(measure), unit)),
  "",
  `- The other calls' p99, run by run: ${pick((run) => run.otherP99Ms).join(", ")} ms (alone before the sheet: ` +
    `${pick((run) => run.baselineP99Ms).join(", ")} ms); the sheet: ` +
    `${pick((run) => run.sheetSeconds).join(", ")} s.`,
  `- Every run settled all ${first.lanes.toLocaleString("en-US")} rows with one receipt per priced lane: ` +
    `${complete && runs.every((run) => run.laneReceipts === run.lanes) ? "yes" : "NO (see the runs above)"}.`,
].join("\n");
console.log(`\n${text}`);
if (process.env.KEEP_RESULTS !== "1") {
  ensureBlock(BENCHMARKS_PAGE, "Bid sheets", ...BATCH_MARKERS);
  replaceBetween(BENCHMARKS_PAGE, ...BATCH_MARKERS, text);
}
