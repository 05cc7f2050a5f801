/**
 * Builds the embedded snapshot (figures.json) from the figures carried into the repository under
 * `data/` (see figures-file.ts and docs/data-sources.md). Reads nothing outside the repository.
 * Run when the figures change: `bun src/reference/snapshot/generate.ts`.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { admitObservations, type AdmittedObservation } from "../storage/admit.ts";
import { seriesRule } from "../series/catalog.ts";
import { parseFiguresFile } from "../storage/figures-file.ts";
import { seriesTitle } from "../series/series-titles.ts";
import { daysBetween } from "../../dates.ts";
import { addStep, type SnapshotFile, type SnapshotSeries } from "./format.ts";

export const SNAPSHOT_VERSION = "2026-11-23";
const dataDir = join(import.meta.dir, "../../../data");

/** Regular weekly or monthly steps from the first date (gaps become nulls), or undefined. */
function regularLayout(
  first: string,
  rows: AdmittedObservation[],
): { every: "week" | "month"; placed: { row: AdmittedObservation; slot: number }[]; length: number } | undefined {
  for (const every of ["week", "month"] as const) {
    const placed: { row: AdmittedObservation; slot: number }[] = [];
    let step = 0;
    for (const row of rows) {
      while (addStep(first, every, step) < row.observedOn && step < 100_000) step++;
      if (addStep(first, every, step) !== row.observedOn) break;
      placed.push({ row, slot: step });
    }
    const lastSlot = placed.at(-1)?.slot;
    if (lastSlot !== undefined && placed.length === rows.length && rows.length > 2 && lastSlot < rows.length * 2)
      return { every, placed, length: lastSlot + 1 };
  }
  return undefined;
}

function snapshotSeries(id: string, source: string, rows: AdmittedObservation[]): SnapshotSeries {
  const rule = seriesRule(id);
  if (!rule) throw new Error(`series ${id} has no catalog rule, so it cannot be in the snapshot`);
  const start = rows[0]?.observedOn;
  if (start === undefined) throw new Error(`series ${id} has no figures to snapshot`);
  const meta = { id, title: seriesTitle(id), unit: rule.unit, source };
  const layout = regularLayout(start, rows);
  if (!layout) return { ...meta, points: rows.map((row) => [row.observedOn, row.value, row.publishedOn]) };
  const values: (number | null)[] = Array(layout.length).fill(null);
  const lags: (number | null)[] = Array(layout.length).fill(null);
  for (const { row, slot } of layout.placed) {
    values[slot] = row.value;
    lags[slot] = daysBetween(row.observedOn, row.publishedOn);
  }
  return { ...meta, start, every: layout.every, values, lags };
}

const series: SnapshotSeries[] = [];
const sources: Record<string, string> = {};
for (const file of readdirSync(dataDir)
  .filter((name) => name.endsWith(".tsv"))
  .sort()) {
  const figures = parseFiguresFile(readFileSync(join(dataDir, file), "utf8"), `data/${file}`);
  const about = (key: string) => figures.about.find((line) => line.startsWith(`${key}: `))?.slice(key.length + 2);
  sources[`data/${file}`] = [
    about("source"),
    about("license") && `License: ${about("license")}`,
    about("publication") && `Published: ${about("publication")}`,
  ]
    .filter(Boolean)
    .join(". ");
  const bySeries = new Map<string, AdmittedObservation[]>();
  for (const row of admitObservations(figures.rows).rows) {
    const rows = bySeries.get(row.seriesId) ?? [];
    rows.push(row);
    bySeries.set(row.seriesId, rows);
  }
  for (const [id, rows] of bySeries)
    series.push(
      snapshotSeries(
        id,
        `data/${file}`,
        rows.sort((a, b) => a.observedOn.localeCompare(b.observedOn)),
      ),
    );
}

const snapshot: SnapshotFile = {
  version: SNAPSHOT_VERSION,
  built_from: "the figures under data/ in this repository, each file naming its source, license and publication rule",
  note: "Every figure carries its publication date; a view as of a day sees only what was published by then (docs/data-sources.md).",
  sources,
  series: series.sort((a, b) => a.id.localeCompare(b.id)),
};
const out = join(import.meta.dir, "figures.json");
writeFileSync(out, JSON.stringify(snapshot));
console.log(`${out}: ${series.length} series, ${Bun.file(out).size} bytes`);
