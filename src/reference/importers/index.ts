import { readFileSync, statSync } from "node:fs";
import { ulid } from "ulid";
import type { Store } from "../../db/client.ts";
import type { ParsedObservation } from "../storage/admit.ts";
import { appendObservations, type AppendResult } from "../storage/append.ts";
import { parseAmsCsv, parseAmsJson } from "./ams.ts";
import { parseBls } from "./bls.ts";
import { ImportFormatError } from "./common.ts";
import { parseEiaCsv, parseEiaJson } from "./eia.ts";
import { isWorkbookFile, parseEiaWorkbook } from "./eia-workbook.ts";
import { parseFhwa } from "./fhwa.ts";
import { parseFred } from "./fred.ts";
import { fileLines, fileSha256, peekFirst, type ProgressListener, textLines } from "./source-lines.ts";
import { parseAta, parseCass, parseFmcsaAuthority, parseFmcsaNewCarriers } from "./trade-tables.ts";

export { ImportFormatError } from "./common.ts";
export type { ProgressListener } from "./source-lines.ts";

export const IMPORT_SOURCES = [
  "eia",
  "fred",
  "bls",
  "ams",
  "fhwa",
  "cass",
  "ata",
  "fmcsa-authority",
  "fmcsa-new-carriers",
] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

/** How a source's files are read: line by line (streamed), and for JSON formats as one text. */
interface SourceFormat {
  describe: string;
  lines: (lines: Iterable<string>) => Iterable<ParsedObservation>;
  json?: (text: string) => Iterable<ParsedObservation>;
  /** A spreadsheet (.xls or .xlsx), read whole. */
  workbook?: (bytes: Uint8Array) => Iterable<ParsedObservation>;
}

const FORMATS: Record<ImportSourceName, SourceFormat> = {
  eia: {
    describe: "EIA CSV, API v2 JSON or weekly history workbook (.xls)",
    lines: parseEiaCsv,
    json: parseEiaJson,
    workbook: parseEiaWorkbook,
  },
  fred: { describe: "FRED CSV", lines: parseFred },
  bls: {
    describe: "BLS time-series flat file",
    // BLS's flat files are tab-separated; a CSV with a date column holds the figures the way FRED exports them.
    lines: (lines) => {
      const [first, all] = peekFirst(lines);
      return first !== undefined && /^date,/i.test(first) ? parseFred(all) : parseBls(all);
    },
  },
  ams: { describe: "USDA AMS FVWTRK table (CSV) or MyMarketNews JSON", lines: parseAmsCsv, json: parseAmsJson },
  fhwa: { describe: "FHWA MF-121T table", lines: parseFhwa },
  cass: { describe: "Cass Freight Index table", lines: parseCass },
  ata: { describe: "ATA truck tonnage table", lines: parseAta },
  "fmcsa-authority": { describe: "FMCSA for-hire authority table", lines: parseFmcsaAuthority },
  "fmcsa-new-carriers": { describe: "FMCSA new-carriers-by-state table", lines: parseFmcsaNewCarriers },
};

export const isImportSource = (value: string): value is ImportSourceName =>
  (IMPORT_SOURCES as readonly string[]).includes(value);

/** JSON bodies are parsed whole; above this they are refused rather than read (line formats stream). */
const JSON_LIMIT_BYTES = 64 * 1024 * 1024;

/** Throws ImportFormatError when a parse yields nothing at all: the file is not of this source. */
function* atLeastOne(rows: Iterable<ParsedObservation>, format: string): Generator<ParsedObservation> {
  let any = false;
  for (const row of rows) {
    any = true;
    yield row;
  }
  if (!any) throw new ImportFormatError(`no observations found; is this a ${format} file?`);
}

/** Every figure of a published text, read by its source's importer (format errors throw ImportFormatError). */
export function parseSource(source: ImportSourceName, content: string): Iterable<ParsedObservation> {
  const format = FORMATS[source];
  const rows = format.json && /^\s*[[{]/.test(content) ? format.json(content) : format.lines(textLines(content));
  return atLeastOne(rows, format.describe);
}

export interface FileImportOptions {
  /** Refuse files larger than this many bytes before reading them. */
  maxBytes: number;
  onProgress?: ProgressListener;
}

/**
 * Streams a published file through its importer and the door, then stores it in one transaction.
 * Only figures of series the product uses are held in memory; a refusal anywhere writes nothing.
 */
export function importFile(
  db: Store,
  source: ImportSourceName,
  path: string,
  fileName: string,
  now: number,
  options: FileImportOptions,
): Promise<AppendResult> {
  const size = statSync(path).size;
  if (size > options.maxBytes) {
    throw new ImportFormatError(
      `${size} bytes is over the import limit of ${options.maxBytes} bytes (--max-mb or WAYBILL_IMPORT_MAX_MB)`,
    );
  }
  const format = FORMATS[source];
  let rows: Iterable<ParsedObservation>;
  const peek = fileLines(path);
  const firstLine = peek.next().value ?? "";
  peek.return(undefined); // closes the file
  if (format.workbook && isWorkbookFile(path)) {
    if (size > JSON_LIMIT_BYTES)
      throw new ImportFormatError(`a workbook over ${JSON_LIMIT_BYTES} bytes is not read whole; export it as CSV`);
    rows = format.workbook(new Uint8Array(readFileSync(path)));
  } else if (format.json && /^\s*[[{]/.test(firstLine)) {
    if (size > JSON_LIMIT_BYTES)
      throw new ImportFormatError(`a JSON file over ${JSON_LIMIT_BYTES} bytes is not read whole; split it`);
    rows = format.json(readFileSync(path, "utf8"));
  } else rows = format.lines(fileLines(path, options.onProgress));
  return appendObservations(
    db,
    { importId: `imp_${ulid(now)}`, source, fileName, fileSha256: fileSha256(path) },
    atLeastOne(rows, format.describe),
    now,
  );
}
