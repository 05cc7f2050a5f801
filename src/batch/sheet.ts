import Papa from "papaparse";
import { errors } from "../errors.ts";
import { READ_TIMEOUT_MS, readXlsx, XlsxReadError } from "./xlsx-reader.ts";

/** How a bid sheet arrived; its priced copy is offered in the same format. */
export type SheetFormat = "json" | "csv" | "xlsx";

/** A bid sheet as uploaded: its columns in order and one record of cells per lane. */
export interface Sheet {
  format: SheetFormat;
  columns: string[];
  rows: Record<string, unknown>[];
}

/** The most lanes one sheet may hold (docs/batch.md). */
export const MAX_SHEET_LANES = 10_000;

/** The columns a sheet must have; the optional rate-lookup fields may follow, and any other column is kept as it is. */
export const REQUIRED_COLUMNS = ["origin", "destination", "equipment"] as const;

export const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const sheetProblem = (problem: string) => errors.invalidRequest([{ field: "(sheet)", problem }]);

/**
 * A CSV bid sheet: a header row, then one lane per row (blank lines skipped). Parsed a slice at a
 * time, yielding to the event loop between slices, so a 10,000-lane sheet never holds up the
 * calls served meanwhile (docs/batch.md, "Storing a sheet").
 */
export async function sheetFromCsv(text: string): Promise<Sheet> {
  const parsed = await parseYielding(text.replace(/^\uFEFF/, ""));
  const columns = parsed.fields.filter((column) => column !== "");
  // Papa reports a short or long row as a field-count mismatch but still gives its cells: the row keeps its place.
  const broken = parsed.errors.find((error) => error.type === "Quotes");
  if (broken) throw sheetProblem(`row ${(broken.row ?? 0) + 1}: ${broken.message}`);
  return checked({ format: "csv", columns, rows: parsed.rows.map((row) => withoutExtras(row, columns)) });
}

/** Characters Papa parses between two yields: about a millisecond of work. */
const CSV_SLICE_CHARS = 64 * 1024;

interface ParsedCsv {
  fields: string[];
  rows: Record<string, string>[];
  /** Each error's `row` counts the lines of the whole text from 0 (the header row), as an unchunked parse does. */
  errors: Papa.ParseError[];
}

/** Papa's chunked parse, paused after each chunk and resumed in a later turn of the event loop. */
function parseYielding(text: string): Promise<ParsedCsv> {
  return new Promise((resolve, reject) => {
    const parsed: ParsedCsv = { fields: [], rows: [], errors: [] };
    let firstChunk = true;
    Papa.parse<Record<string, string>>(text, {
      header: true,
      skipEmptyLines: "greedy",
      transformHeader: (header) => header.trim(),
      chunkSize: CSV_SLICE_CHARS,
      chunk(results: Papa.ParseResult<Record<string, string>>, parser: Papa.Parser) {
        // Papa counts an error's row within the chunk, and only the first chunk has the header row.
        const offset = firstChunk ? 0 : parsed.rows.length + 1;
        firstChunk = false;
        for (const row of results.data) parsed.rows.push(row);
        for (const error of results.errors) parsed.errors.push({ ...error, row: (error.row ?? 0) + offset });
        parsed.fields = results.meta.fields ?? parsed.fields;
        parser.pause();
        setImmediate(() => parser.resume());
      },
      complete: () => resolve(parsed),
      error: (error: Error) => reject(error),
    });
  });
}

/** The first worksheet of an XLSX workbook: its first row names the columns. Read in a worker (./xlsx-reader.ts). */
export async function sheetFromXlsx(bytes: Uint8Array): Promise<Sheet> {
  const read = await readXlsx(bytes).catch((error: unknown) => {
    if (error instanceof XlsxReadError && error.failure === "timed out")
      throw sheetProblem(`could not be read within ${READ_TIMEOUT_MS / 1000} s`);
    throw error instanceof XlsxReadError ? errors.internal() : error;
  });
  if ("problem" in read) throw sheetProblem(read.problem);
  const { columns } = read;
  const rows = read.rows.map((cells) => Object.fromEntries(columns.map((name, at) => [name, cells[at] ?? ""])));
  return checked({ format: "xlsx", columns, rows });
}

/** `{"lanes": [...]}`: each lane is a rate-lookup input; its fields are the sheet's columns. */
export function sheetFromJson(body: unknown): Sheet {
  const lanes = (body as { lanes?: unknown } | null)?.lanes;
  if (!Array.isArray(lanes)) throw errors.invalidRequest([{ field: "lanes", problem: "must be an array of lanes" }]);
  const columns = new Set<string>();
  const rows = lanes.map((lane, index) => {
    if (typeof lane !== "object" || lane === null || Array.isArray(lane))
      throw errors.invalidRequest([{ field: `lanes[${index}]`, problem: "must be an object" }]);
    for (const key of Object.keys(lane)) columns.add(key);
    return lane as Record<string, unknown>;
  });
  return checked({ format: "json", columns: [...columns], rows }, false);
}

function checked(sheet: Sheet, needsHeader = true): Sheet {
  if (needsHeader) {
    const names = new Set(sheet.columns.map(fieldName));
    const missing = REQUIRED_COLUMNS.filter((column) => !names.has(column));
    if (missing.length > 0) throw sheetProblem(`the header row lacks ${missing.join(", ")}`);
  }
  if (sheet.rows.length === 0) throw sheetProblem("holds no lanes");
  if (sheet.rows.length > MAX_SHEET_LANES)
    throw sheetProblem(`holds ${sheet.rows.length} lanes; at most ${MAX_SHEET_LANES} are priced in one sheet`);
  return sheet;
}

/** A column header as a rate-lookup field name: "Include fuel surcharge" → include_fuel_surcharge. */
export function fieldName(column: string): string {
  return column
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** Papa gives cells past the header under `__parsed_extra`: they have no column, so they are dropped. */
function withoutExtras(row: Record<string, string>, columns: readonly string[]): Record<string, unknown> {
  const cells: Record<string, unknown> = {};
  for (const column of columns) cells[column] = row[column] ?? "";
  return cells;
}
