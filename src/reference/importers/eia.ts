import type { ParsedObservation } from "../storage/admit.ts";
import { DIESEL_AREAS, type DieselArea, dieselSeriesId } from "../series/series-ids.ts";
import { csvCells, ImportFormatError, isoDate, jsonObjectRows, requireValue } from "./common.ts";

const SERIES_ID = /EMD_[A-Z0-9]+_[A-Z0-9]+_[A-Z0-9]+_DPG/i;

/**
 * EIA API v2 JSON (`response.data[]` rows with `period`, `value` and `series`, or `duoarea` +
 * `product` + `process` from which the series id is built).
 */
function parseApiV2(text: string): ParsedObservation[] {
  let body: { response?: { data?: unknown } } | null;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ImportFormatError("not valid JSON (expected an EIA API v2 response)");
  }
  const data = body?.response?.data;
  if (!Array.isArray(data))
    throw new ImportFormatError("JSON has no response.data array (expected an EIA API v2 response)");
  return jsonObjectRows(data, "response.data").map(({ row, where }) => {
    const seriesId =
      typeof row.series === "string"
        ? row.series.toUpperCase()
        : row.duoarea && row.product && row.process
          ? `EMD_${row.product}_${row.process}_${row.duoarea}_DPG`.toUpperCase()
          : undefined;
    if (!seriesId) throw new ImportFormatError(`${where}: no 'series' (or duoarea/product/process) field`);
    const observedOn = isoDate(String(row.period ?? ""));
    if (!observedOn) throw new ImportFormatError(`${where}: period '${row.period}' is not a date`);
    return { seriesId, observedOn, value: requireValue(String(row.value ?? ""), where), where };
  });
}

/** A header cell that names a series: an EIA id, a diesel area code (NUS, R10, ... as EIA's workbook heads its columns), or the national price. */
function columnSeries(cell: string): string | undefined {
  const id = cell.match(SERIES_ID)?.[0];
  if (id) return id.toUpperCase();
  const code = cell.trim().toUpperCase();
  if ((DIESEL_AREAS as readonly string[]).includes(code)) return dieselSeriesId(code as DieselArea);
  return /^usd_per_gal$/i.test(cell.trim()) ? dieselSeriesId("NUS") : undefined;
}

/**
 * EIA's CSV download of a weekly series: a few quoted preamble lines (title, the series link with
 * `s=<series id>`, source), a header "Week of,<series name>", then "MM/DD/YYYY,value" rows. A header
 * whose columns are series ids or EIA's area codes (one column per series) is accepted too.
 */
function* parseCsv(lines: Iterable<string>): Generator<ParsedObservation> {
  const preamble: string[] = [];
  let columnIds: (string | undefined)[] | undefined;
  let pending: string | undefined; // a candidate header, confirmed by a dated line after it
  let lineNo = 0;
  for (const line of lines) {
    lineNo++;
    const cells = csvCells(line);
    if (!columnIds) {
      if (pending !== undefined && isoDate(cells[0]) !== undefined) {
        const header = csvCells(pending);
        const preambleId = preamble.join(" ").match(SERIES_ID)?.[0];
        columnIds = header
          .slice(1)
          .map((cell, i) => columnSeries(cell) ?? (i === 0 ? preambleId?.toUpperCase() : undefined));
        if (columnIds.every((id) => id === undefined)) {
          throw new ImportFormatError(
            "cannot tell which EIA series this is: no EMD_..._DPG id in the link line or header",
          );
        }
      } else {
        if (pending !== undefined) preamble.push(pending);
        pending = cells.length >= 2 && !isoDate(cells[0]) ? line : undefined;
        if (pending === undefined) preamble.push(line);
        if (preamble.length > 50) break;
        continue;
      }
    }
    const observedOn = isoDate(cells[0]);
    const where = `line ${lineNo}`;
    if (!observedOn) throw new ImportFormatError(`${where}: '${cells[0]}' is not a date`);
    for (let i = 0; i < columnIds.length; i++) {
      const seriesId = columnIds[i];
      const cell = cells[i + 1] ?? "";
      if (seriesId && cell !== "" && cell !== "NA" && cell !== "--")
        yield { seriesId, observedOn, value: requireValue(cell, where), where };
    }
  }
  if (!columnIds)
    throw new ImportFormatError("no header row followed by dated rows (expected an EIA weekly CSV download)");
}

/** EIA API v2 JSON, whole (responses are paged and small). */
export const parseEiaJson = (text: string): ParsedObservation[] => parseApiV2(text);
/** EIA's CSV downloads, line by line. */
export const parseEiaCsv = (lines: Iterable<string>): Iterable<ParsedObservation> => parseCsv(lines);
