/**
 * Carries a published file's figures into the repository's own format (docs/data-sources.md):
 *   bun scripts/carry-figures.ts SOURCE INPUT data/OUTPUT.tsv [--about "source: ..."]...
 * INPUT is read by the same importer `waybill data import SOURCE` uses and checked at the same door,
 * then merged into OUTPUT: a figure for a series and date already there is replaced by the input's
 * (the newer vintage). OUTPUT keeps its comment lines; `--about` lines start a new file.
 * Afterwards `bun src/reference/snapshot/generate.ts` rebuilds the embedded snapshot.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { admitObservations } from "../src/reference/storage/admit.ts";
import { formatFiguresFile, parseFiguresFile } from "../src/reference/storage/figures-file.ts";
import { isImportSource, parseSource } from "../src/reference/importers/index.ts";

const [source, input, output, ...rest] = process.argv.slice(2);
if (!source || !input || !output || !isImportSource(source)) {
  console.error(
    "usage: bun scripts/carry-figures.ts eia|fred|bls|ams|cass|ata|fmcsa-authority|fmcsa-new-carriers INPUT OUTPUT.tsv [--about TEXT]...",
  );
  process.exit(2);
}
const about = rest.flatMap((arg, i) => (rest[i - 1] === "--about" ? [arg] : []));
const existing = existsSync(output) ? parseFiguresFile(readFileSync(output, "utf8"), output) : { about, rows: [] };
if (existing.about.length === 0) {
  console.error(`${output} is new: name its source and license with --about`);
  process.exit(2);
}
const incoming = admitObservations(parseSource(source, readFileSync(input, "utf8"))).rows;
const merged = new Map(
  admitObservations(existing.rows).rows.map((row) => [`${row.seriesId}\u0000${row.observedOn}`, row]),
);
for (const row of incoming) merged.set(`${row.seriesId}\u0000${row.observedOn}`, row);
writeFileSync(output, formatFiguresFile(existing.about, [...merged.values()]));
console.log(`${output}: ${incoming.length} figures from ${input}, ${merged.size} in all`);
