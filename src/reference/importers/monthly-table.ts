import type { ParsedObservation } from "../storage/admit.ts";
import { seriesRule } from "../series/catalog.ts";
import { csvRecords, ImportFormatError, requireValue } from "./common.ts";

/**
 * Monthly figures published in trade releases (Cass, ATA, FTR's FMCSA counts) arrive as tables: a
 * `month` column (YYYY-MM), one column per measure, and often a `source_id` naming the release the row
 * was read from. A release date in that id (`..._YYYY_MM_DD`, or `..._YYYY_MM` for the month) dates
 * the figure's publication when it is later than the series' rule; several ids (`a;b`) take the
 * earliest. An empty cell is a figure the release did not print.
 */
export interface TableColumn {
  column: string;
  seriesId: (row: Record<string, string>) => string | undefined;
}

function releaseDate(sourceId: string | undefined): string | undefined {
  const dates = (sourceId ?? "")
    .split(";")
    .map((id) => /_(\d{4})_(\d{2})(?:_(\d{2}))?(?:_|$)/.exec(id.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, year, month, day]) => `${year}-${month}-${day ?? "01"}`)
    .sort();
  return dates[0];
}

export function* parseMonthlyTable(
  lines: Iterable<string>,
  format: string,
  columns: TableColumn[],
): Generator<ParsedObservation> {
  for (const { row, where } of csvRecords(lines, ["month", ...columns.map((c) => c.column)], format)) {
    const month = /^(\d{4})-(\d{2})$/.exec(row.month ?? "");
    if (!month) throw new ImportFormatError(`${where}: month '${row.month}' is not YYYY-MM`);
    const observedOn = `${month[1]}-${month[2]}-01`;
    const released = releaseDate(row.source_id);
    for (const { column, seriesId: idOf } of columns) {
      const cell = row[column] ?? "";
      const seriesId = idOf(row);
      if (cell === "" || !seriesId) continue;
      const rule = seriesRule(seriesId)?.published(observedOn);
      const publishedOn = released && rule && released > rule ? released : rule;
      yield { seriesId, observedOn, value: requireValue(cell, where), publishedOn, where };
    }
  }
}
