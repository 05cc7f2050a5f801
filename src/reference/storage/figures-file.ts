/**
 * The project's own file format for figures carried into the repository (`data/*.tsv`), from which
 * the embedded snapshot is generated. Comment lines (`# key: text`) name the source, its license and
 * its publication rule; then a header and one tab-separated row per figure:
 *
 *   # waybill-figures/1
 *   # source: USDA AMS Market News, Specialty Crops National Truck Rate Report (FVWTRK)
 *   series	date	value	published
 *   AMS_FVWTRK_REEFER_LOW_GEORGIA__ATLANTA	2026-07-28	1700	2026-07-28
 */
import type { AdmittedObservation, ParsedObservation } from "./admit.ts";

export const FIGURES_FORMAT = "waybill-figures/1";
const HEADER = ["series", "date", "value", "published"].join("\t");

export interface FiguresFile {
  /** The comment lines after the format line, without their leading "# ". */
  about: string[];
  rows: ParsedObservation[];
}

export function parseFiguresFile(text: string, name = "figures file"): FiguresFile {
  const lines = text.split("\n").filter((line) => line !== "");
  if (lines[0] !== `# ${FIGURES_FORMAT}`) throw new Error(`${name}: first line must be '# ${FIGURES_FORMAT}'`);
  // The '# ' lines after the format line are the about text; the header follows them.
  const afterAbout = lines.findIndex((line, index) => index > 0 && !line.startsWith("#"));
  const headerAt = afterAbout === -1 ? lines.length : afterAbout;
  const about = lines.slice(1, headerAt).map((line) => line.replace(/^# ?/, ""));
  if (lines[headerAt] !== HEADER)
    throw new Error(`${name}: line ${headerAt + 1} must be the header '${HEADER.replace(/\t/g, "<TAB>")}'`);
  const rows: ParsedObservation[] = [];
  for (const [index, line] of lines.entries()) {
    if (index <= headerAt) continue;
    const [seriesId, observedOn, value, publishedOn] = line.split("\t");
    if (!seriesId || !observedOn || value === undefined || !publishedOn)
      throw new Error(`${name}: line ${index + 1} needs 4 tab-separated cells`);
    rows.push({ seriesId, observedOn, value: Number(value), publishedOn, where: `${name} line ${index + 1}` });
  }
  return { about, rows };
}

export function formatFiguresFile(about: readonly string[], rows: readonly AdmittedObservation[]): string {
  const sorted = [...rows].sort(
    (a, b) => a.seriesId.localeCompare(b.seriesId) || a.observedOn.localeCompare(b.observedOn),
  );
  return [
    `# ${FIGURES_FORMAT}`,
    ...about.map((line) => `# ${line}`),
    HEADER,
    ...sorted.map((row) => [row.seriesId, row.observedOn, String(row.value), row.publishedOn].join("\t")),
    "",
  ].join("\n");
}
