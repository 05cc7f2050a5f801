import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Db } from "../db/client.ts";
import { createReferenceStore } from "../reference/store.ts";
import { snapshotSeriesInfo } from "../reference/snapshot/index.ts";
import { IMPORT_SOURCES, ImportFormatError, importFile, isImportSource } from "../reference/importers/index.ts";
import { daysBetween, utcDateOf } from "../dates.ts";

export interface CommandResult {
  exitCode: number;
  output: string;
}

interface Options {
  json?: boolean;
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
    .prepare<{ id: string; source: string; file_name: string; imported_at: number; rows_added: number; rows_skipped: number }, []>(
      "SELECT id, source, file_name, imported_at, rows_added, rows_skipped FROM data_imports ORDER BY imported_at, id",
    )
    .all();
  if (options.json) return { exitCode: 0, output: JSON.stringify({ series, imports }, null, 2) };
  if (series.length === 0) return { exitCode: 0, output: "No reference data loaded yet; start the server once or run `waybill data import`." };
  const width = Math.max(...series.map((s) => s.series_id.length));
  const rows = series.map(
    (s) => `${s.series_id.padEnd(width)}  ${s.latest}  ${String(s.age_days).padStart(6)} d  ${String(s.observations).padStart(5)} obs  ${s.title}`,
  );
  const importLines = imports.map(
    (i) => `${i.id}  ${i.source.padEnd(8)}  ${new Date(i.imported_at).toISOString()}  +${i.rows_added} (${i.rows_skipped} skipped)  ${i.file_name}`,
  );
  return {
    exitCode: 0,
    output: [`${"series".padEnd(width)}  latest      age        count`, ...rows, "", "imports:", ...importLines].join("\n"),
  };
}

/** `waybill data import eia|fred|bls|ams FILE`: adds new observations, never overwrites; all or nothing. */
export function dataImport(db: Db, source: string, file: string, options: Options = {}): CommandResult {
  const fail = (message: string): CommandResult => ({
    exitCode: 1,
    output: options.json ? JSON.stringify({ error: message }) : `error: ${message}`,
  });
  if (!isImportSource(source)) return fail(`unknown source '${source}'; use one of ${IMPORT_SOURCES.join(", ")}`);
  let content: string;
  try {
    content = readFileSync(file, "utf8");
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const result = importFile(db, source, basename(file), content, options.now ?? Date.now());
    const summary = { import_id: result.added > 0 ? result.importId : null, source, file, added: result.added, skipped: result.skipped };
    return {
      exitCode: 0,
      output: options.json
        ? JSON.stringify(summary)
        : result.added > 0
          ? `imported ${result.added} new observations from ${file} as ${result.importId} (${result.skipped} already stored, skipped)`
          : `nothing new in ${file}: all ${result.skipped} observations are already stored`,
    };
  } catch (error) {
    if (error instanceof ImportFormatError) return fail(`${basename(file)} is not a valid ${source.toUpperCase()} file: ${error.message}`);
    throw error;
  }
}
