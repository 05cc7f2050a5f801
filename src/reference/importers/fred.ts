import type { ParsedObservation } from "../admit.ts";
import { csvCells, ImportFormatError, isoDate, lines, nonEmpty, requireValue } from "./common.ts";

/** FRED's CSV download: header `observation_date,<SERIES>[,<SERIES>...]` (older files: `DATE,...`); "." marks no value. */
export function parseFred(text: string): ParsedObservation[] {
  const [headerLine, ...rowLines] = lines(text);
  const header = csvCells(headerLine ?? "");
  if (!/^(observation_date|date)$/i.test(header[0] ?? "") || header.length < 2) {
    throw new ImportFormatError("first line must be 'observation_date,<SERIES_ID>' (a FRED CSV download)");
  }
  const seriesIds = header.slice(1);
  for (const id of seriesIds) if (!/^[A-Z0-9_]+$/i.test(id)) throw new ImportFormatError(`'${id}' is not a FRED series id`);
  const rows: ParsedObservation[] = [];
  rowLines.forEach((line, offset) => {
    const cells = csvCells(line);
    const where = `line ${offset + 2}`;
    const observedOn = isoDate(cells[0]!);
    if (!observedOn) throw new ImportFormatError(`${where}: '${cells[0]}' is not a date`);
    seriesIds.forEach((seriesId, i) => {
      const cell = cells[i + 1] ?? "";
      if (cell !== "" && cell !== ".") rows.push({ seriesId: seriesId.toUpperCase(), observedOn, value: requireValue(cell, where) });
    });
  });
  return nonEmpty(rows, "FRED CSV");
}
