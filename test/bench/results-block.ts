// Measured tables live in docs/benchmarks.md, each between two HTML comment markers, so a benchmark
// script rewrites its own block and leaves the rest of the page (and every other document) alone.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

/** The one page benchmark and fidelity scripts write their results to. */
export const BENCHMARKS_PAGE = resolve(import.meta.dir, "../../docs/benchmarks.md");

export function replaceBetween(file: string, start: string, end: string, text: string): void {
  const content = readFileSync(file, "utf8");
  const from = content.indexOf(start);
  const to = content.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`${file} has no ${start} … ${end} block`);
  writeFileSync(file, `${content.slice(0, from + start.length)}\n${text.trim()}\n${content.slice(to)}`);
}

/** Append `## heading` with an empty marker pair at the end of the file unless the markers are there. */
export function ensureBlock(file: string, heading: string, start: string, end: string): void {
  const content = readFileSync(file, "utf8");
  if (content.includes(start) && content.includes(end)) return;
  writeFileSync(file, `${content.trimEnd()}\n\n## ${heading}\n\n${start}\n${end}\n`);
}

/** What is between the markers now (without the surrounding newlines), or "" when absent. */
export function textBetween(file: string, start: string, end: string): string {
  const content = readFileSync(file, "utf8");
  const from = content.indexOf(start);
  const to = content.indexOf(end, from);
  return from < 0 || to < 0 ? "" : content.slice(from + start.length, to).trim();
}

export const BENCH_MARKERS = ["<!-- bench:start -->", "<!-- bench:end -->"] as const;
export const SOAK_MARKERS = ["<!-- soak:start -->", "<!-- soak:end -->"] as const;
export const FIDELITY_MARKERS = ["<!-- fidelity:start -->", "<!-- fidelity:end -->"] as const;
export const CAPACITY_MARKERS = ["<!-- capacity:start -->", "<!-- capacity:end -->"] as const;
export const REPLICAS_MARKERS = ["<!-- replicas:start -->", "<!-- replicas:end -->"] as const;
export const BATCH_MARKERS = ["<!-- batch:start -->", "<!-- batch:end -->"] as const;
