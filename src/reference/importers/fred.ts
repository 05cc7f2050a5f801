import type { ParsedObservation } from "../storage/admit.ts";
import { csvCells, ImportFormatError, isoDate, requireValue } from "./common.ts";

/**
 * Column names of FRED-style downloads that are not FRED ids, mapped to the series they hold
 * (a FRED graph export names a transformed column; the research copy of INDPRO did the same).
 */
const COLUMN_ALIASES: Record<string, string> = { INDPRO_2017EQ100: "INDPRO", EMPLOYEES_THOUSANDS_SA: "CES4348400001" };

/** FRED's CSV download: header `observation_date,<SERIES>[,<SERIES>...]` (older files: `DATE,...`); "." marks no value. */
export function* parseFred(lines: Iterable<string>): Generator<ParsedObservation> {
  let seriesIds: string[] | undefined;
  let lineNo = 0;
  for (const line of lines) {
    lineNo++;
    const cells = csvCells(line);
    if (!seriesIds) {
      if (!/^(observation_date|date)$/i.test(cells[0] ?? "") || cells.length < 2) {
        throw new ImportFormatError("first line must be 'observation_date,<SERIES_ID>' (a FRED CSV download)");
      }
      for (const id of cells.slice(1))
        if (!/^[A-Z0-9_]+$/i.test(id)) throw new ImportFormatError(`'${id}' is not a FRED series id`);
      seriesIds = cells.slice(1).map((id) => COLUMN_ALIASES[id.toUpperCase()] ?? id.toUpperCase());
      continue;
    }
    const where = `line ${lineNo}`;
    const observedOn = isoDate(cells[0]);
    if (!observedOn) throw new ImportFormatError(`${where}: '${cells[0]}' is not a date`);
    for (const [i, seriesId] of seriesIds.entries()) {
      const cell = cells[i + 1] ?? "";
      if (cell !== "" && cell !== ".") yield { seriesId, observedOn, value: requireValue(cell, where), where };
    }
  }
}
