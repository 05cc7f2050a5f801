import type { ParsedObservation } from "../admit.ts";
import { csvCells, ImportFormatError, isoDate, lines, nonEmpty, requireValue } from "./common.ts";

const SERIES_ID = /EMD_[A-Z0-9]+_[A-Z0-9]+_[A-Z0-9]+_DPG/i;

/**
 * EIA API v2 JSON (`response.data[]` rows with `period`, `value` and `series`, or `duoarea` +
 * `product` + `process` from which the series id is built).
 */
function parseApiV2(text: string): ParsedObservation[] {
  let body: { response?: { data?: Record<string, unknown>[] } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ImportFormatError("not valid JSON (expected an EIA API v2 response)");
  }
  const data = body.response?.data;
  if (!Array.isArray(data)) throw new ImportFormatError("JSON has no response.data array (expected an EIA API v2 response)");
  return data.map((row, i) => {
    const where = `response.data[${i}]`;
    const seriesId =
      typeof row.series === "string"
        ? row.series.toUpperCase()
        : row.duoarea && row.product && row.process
          ? `EMD_${row.product}_${row.process}_${row.duoarea}_DPG`.toUpperCase()
          : undefined;
    if (!seriesId) throw new ImportFormatError(`${where}: no 'series' (or duoarea/product/process) field`);
    const observedOn = isoDate(String(row.period ?? ""));
    if (!observedOn) throw new ImportFormatError(`${where}: period '${row.period}' is not a date`);
    return { seriesId, observedOn, value: requireValue(String(row.value ?? ""), where) };
  });
}

/**
 * EIA's CSV download of a weekly series: a few quoted preamble lines (title, the series link with
 * `s=<series id>`, source), a header "Week of,<series name>", then "MM/DD/YYYY,value" rows. A header
 * whose columns are series ids (one column per series) is accepted too.
 */
function parseCsv(text: string): ParsedObservation[] {
  const all = lines(text);
  const headerIndex = all.findIndex((line, i) => {
    const cells = csvCells(line);
    const next = all[i + 1];
    return cells.length >= 2 && !isoDate(cells[0]!) && next !== undefined && isoDate(csvCells(next)[0]!) !== undefined;
  });
  if (headerIndex < 0) throw new ImportFormatError("no header row followed by dated rows (expected an EIA weekly CSV download)");
  const header = csvCells(all[headerIndex]!);
  const preambleId = all.slice(0, headerIndex).join(" ").match(SERIES_ID)?.[0];
  const columnIds = header.slice(1).map((cell, i) => cell.match(SERIES_ID)?.[0] ?? (i === 0 ? preambleId : undefined));
  if (columnIds.every((id) => id === undefined)) {
    throw new ImportFormatError("cannot tell which EIA series this is: no EMD_..._DPG id in the link line or header");
  }
  const rows: ParsedObservation[] = [];
  all.slice(headerIndex + 1).forEach((line, offset) => {
    const cells = csvCells(line);
    const observedOn = isoDate(cells[0]!);
    const where = `line ${headerIndex + offset + 2}`;
    if (!observedOn) throw new ImportFormatError(`${where}: '${cells[0]}' is not a date`);
    columnIds.forEach((seriesId, i) => {
      const cell = cells[i + 1] ?? "";
      if (seriesId && cell !== "" && cell !== "NA" && cell !== "--") {
        rows.push({ seriesId: seriesId.toUpperCase(), observedOn, value: requireValue(cell, where) });
      }
    });
  });
  return rows;
}

export function parseEia(text: string): ParsedObservation[] {
  return nonEmpty(text.trimStart().startsWith("{") ? parseApiV2(text) : parseCsv(text), "EIA CSV or API v2 JSON");
}
