import { statSync } from "node:fs";
import { basename } from "node:path";
import type { Db } from "../db/client.ts";
import { createReferenceStore } from "../reference/store.ts";
import { snapshotSeriesInfo } from "../reference/snapshot/index.ts";
import { importProgress } from "./import-progress.ts";
import { RefusedDataError } from "../reference/append.ts";
import { RetractionError, retractImport } from "../reference/retract.ts";
import { IMPORT_SOURCES, ImportFormatError, importFile, isImportSource } from "../reference/importers/index.ts";
import { daysBetween, utcDateOf } from "../dates.ts";

export interface CommandResult {
  exitCode: number;
  output: string;
}

interface Options {
  json?: boolean;
  /** Import size limit in MiB (default 512). */
  maxMb?: number;
  /** Where progress goes; defaults to stderr, as a bar when it is a terminal. */
  progress?: { isTTY: boolean; write: (text: string) => void };
  /** ms epoch; defaults to the system clock. */
  now?: number;
}


/** `waybill data status`: every series with its newest observation and how old it is. */
export function dataStatus(db: Db, options: Options = {}): CommandResult {
  const now = options.now ?? Date.now();
  const series = createReferenceStore(db)
    .summary()
    .sort((a, b) => a.seriesId.localeCompare(b.seriesId))
    .map((s) => ({
      series_id: s.seriesId,
      title: snapshotSeriesInfo.get(s.seriesId)?.title ?? "",
      first: s.first,
      latest: s.latest,
      latest_value: s.latestValue,
      age_days: daysBetween(s.latest, utcDateOf(now)),
      observations: s.observations,
    }));
  const imports = db.$client
    .prepare<
      { id: string; source: string; file_name: string; imported_at: number; rows_added: number; rows_skipped: number; retracted_at: number | null; reason: string | null },
      []
    >(
      `SELECT i.id, i.source, i.file_name, i.imported_at, i.rows_added, i.rows_skipped, r.retracted_at, r.reason
         FROM data_imports i LEFT JOIN data_retractions r ON r.import_id = i.id ORDER BY i.imported_at, i.id`,
    )
    .all()
    .map(({ retracted_at, reason, ...row }) => ({
      ...row,
      retracted: retracted_at === null ? null : { at: new Date(retracted_at).toISOString(), reason: reason ?? "" },
    }));
  if (options.json) return { exitCode: 0, output: JSON.stringify({ series, imports }, null, 2) };
  if (series.length === 0) return { exitCode: 0, output: "No reference data loaded yet; start the server once or run `waybill data import`." };
  const width = Math.max(...series.map((s) => s.series_id.length));
  const rows = series.map(
    (s) => `${s.series_id.padEnd(width)}  ${s.latest}  ${String(s.age_days).padStart(6)} d  ${String(s.observations).padStart(5)} obs  ${s.title}`,
  );
  const importLines = imports.map(
    (i) =>
      `${i.id}  ${i.source.padEnd(8)}  ${new Date(i.imported_at).toISOString()}  +${i.rows_added} (${i.rows_skipped} skipped)  ${i.file_name}` +
      (i.retracted ? `  RETRACTED ${i.retracted.at}: ${i.retracted.reason}` : ""),
  );
  return {
    exitCode: 0,
    output: [`${"series".padEnd(width)}  latest      age        count`, ...rows, "", "imports:", ...importLines].join("\n"),
  };
}

export const DEFAULT_IMPORT_MAX_MB = 512;

/** `waybill data import SOURCE FILE`: adds new observations, never overwrites; all or nothing. */
export function dataImport(db: Db, source: string, file: string, options: Options = {}): CommandResult {
  const fail = (message: string): CommandResult => ({
    exitCode: 1,
    output: options.json ? JSON.stringify({ error: message }) : `error: ${message}`,
  });
  if (!isImportSource(source)) return fail(`unknown source '${source}'; use one of ${IMPORT_SOURCES.join(", ")}`);
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const sink = options.progress ?? { isTTY: process.stderr.isTTY === true, write: (text: string) => process.stderr.write(text) };
  try {
    const result = importFile(db, source, file, basename(file), options.now ?? Date.now(), {
      maxBytes: (options.maxMb ?? DEFAULT_IMPORT_MAX_MB) * 1024 * 1024,
      onProgress: importProgress(size, { json: options.json === true, ...sink }),
    });
    const summary = { import_id: result.added > 0 ? result.importId : null, source, file, added: result.added, skipped: result.skipped, ignored: result.ignored };
    const ignored = result.ignored > 0 ? `; ${result.ignored} figures of series Waybill does not use were left out` : "";
    return {
      exitCode: 0,
      output: options.json
        ? JSON.stringify(summary)
        : result.added > 0
          ? `imported ${result.added} new observations from ${file} as ${result.importId} (${result.skipped} already stored, skipped${ignored})`
          : `nothing new in ${file}: all ${result.skipped} observations are already stored${ignored}`,
    };
  } catch (error) {
    if (error instanceof ImportFormatError) return fail(`${basename(file)} is not a valid ${source.toUpperCase()} file: ${error.message}`);
    if (error instanceof RefusedDataError) return fail(`${basename(file)} refused: ${error.message}`);
    throw error;
  }
}

/** `waybill data retract IMPORT_ID --reason TEXT`: hides a bad import from every view from now on. */
export function dataRetract(db: Db, importId: string, reason: string, options: Options = {}): CommandResult {
  try {
    const done = retractImport(db, importId, reason, options.now ?? Date.now());
    const summary = { import_id: done.importId, reason: done.reason, retracted_at: new Date(done.retractedAt).toISOString(), observations: done.observations };
    return {
      exitCode: 0,
      output: options.json
        ? JSON.stringify(summary)
        : `retracted ${done.importId} (${done.observations} observations) at ${summary.retracted_at}: ${done.reason}; receipts signed before keep their figures`,
    };
  } catch (error) {
    if (!(error instanceof RetractionError)) throw error;
    return { exitCode: 1, output: options.json ? JSON.stringify({ error: error.message }) : `error: ${error.message}` };
  }
}
