import { statSync } from "node:fs";
import { basename } from "node:path";
import { asc, eq } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { createReferenceStore } from "../reference/storage/store.ts";
import { seriesFreshness } from "../reference/series/freshness.ts";
import { importProgress } from "./import-progress.ts";
import { RefusedDataError } from "../reference/storage/append.ts";
import { RetractionError, retractImport } from "../reference/storage/retract.ts";
import { IMPORT_SOURCES, ImportFormatError, importFile, isImportSource } from "../reference/importers/index.ts";
import { isRoadNetworkVersion } from "../reference/roads/index.ts";
import { osmImport, roadsImport, roadsRetract } from "./data-roads.ts";
import { utcDateOf } from "../dates.ts";

import { failure, type CommandResult } from "./result.ts";

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
export async function dataStatus(db: Store, options: Options = {}): Promise<CommandResult> {
  const now = options.now ?? Date.now();
  const figures = createReferenceStore(db);
  await figures.reload();
  const series = seriesFreshness(figures.summary(), utcDateOf(now)).map((s) => ({
    series_id: s.seriesId,
    title: s.title,
    unit: s.unit,
    cadence: s.cadence,
    first: s.first,
    latest: s.latest,
    latest_value: s.latestValue,
    published_on: s.publishedOn,
    age_days: s.ageDays,
    next_due: s.nextDue,
    overdue: s.overdue,
    observations: s.observations,
  }));
  const { dataImports: i, dataRetractions: r } = db.t;
  const imports = (
    await db
      .select({
        id: i.id,
        source: i.source,
        file_name: i.fileName,
        imported_at: i.importedAt,
        rows_added: i.rowsAdded,
        rows_skipped: i.rowsSkipped,
        retracted_at: r.retractedAt,
        reason: r.reason,
      })
      .from(i)
      .leftJoin(r, eq(r.importId, i.id))
      .orderBy(asc(i.importedAt), asc(i.id))
  ).map(({ retracted_at, reason, ...row }) => ({
    ...row,
    retracted: retracted_at === null ? null : { at: new Date(retracted_at).toISOString(), reason: reason ?? "" },
  }));
  if (options.json) return { exitCode: 0, output: JSON.stringify({ series, imports }, null, 2) };
  if (series.length === 0)
    return { exitCode: 0, output: "No reference data loaded yet; start the server once or run `waybill data import`." };
  const width = Math.max(...series.map((s) => s.series_id.length));
  const rows = series.map(
    (s) =>
      `${s.series_id.padEnd(width)}  ${s.latest}  ${s.published_on}  ${String(s.age_days).padStart(6)} d  ${s.cadence.padEnd(9)}  ${(s.overdue ? "OVERDUE" : "ok").padEnd(7)}  ${String(s.observations).padStart(5)} obs  ${s.title}`,
  );
  const overdue = series.filter((s) => s.overdue).length;
  const importLines = imports.map(
    (i) =>
      `${i.id}  ${i.source.padEnd(8)}  ${new Date(i.imported_at).toISOString()}  +${i.rows_added} (${i.rows_skipped} skipped)  ${i.file_name}` +
      (i.retracted ? `  RETRACTED ${i.retracted.at}: ${i.retracted.reason}` : ""),
  );
  return {
    exitCode: 0,
    output: [
      `${"series".padEnd(width)}  latest      published      age  cadence    status     count`,
      ...rows,
      "",
      `${series.length} series, ${overdue} overdue (no figure published within the source's usual delay after the next was due)`,
      "",
      "imports:",
      ...importLines,
    ].join("\n"),
  };
}

export const DEFAULT_IMPORT_MAX_MB = 512;

/** `waybill data import SOURCE FILE`: adds new observations (or, for `roads`, a road network), never overwrites; all or nothing. */
export async function dataImport(
  db: Store,
  source: string,
  file: string,
  options: Options = {},
): Promise<CommandResult> {
  const json = options.json ?? false;
  const fail = (message: string): CommandResult => failure(json, message);
  const roadOptions = { json, maxMb: options.maxMb ?? DEFAULT_IMPORT_MAX_MB, now: options.now };
  if (source === "roads") return roadsImport(db, file, roadOptions);
  if (source === "osm") return osmImport(db, file, roadOptions);
  if (!isImportSource(source))
    return failure(
      json,
      `unknown source '${source}'; use one of ${[...IMPORT_SOURCES, "roads", "osm"].join(", ")}`,
      "bad_arguments",
    );
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const sink = options.progress ?? {
    isTTY: process.stderr.isTTY === true,
    write: (text: string) => process.stderr.write(text),
  };
  try {
    const result = await importFile(db, source, file, basename(file), options.now ?? Date.now(), {
      maxBytes: (options.maxMb ?? DEFAULT_IMPORT_MAX_MB) * 1024 * 1024,
      onProgress: importProgress(size, { json: options.json === true, ...sink }),
    });
    const summary = {
      import_id: result.added > 0 ? result.importId : null,
      source,
      file,
      added: result.added,
      skipped: result.skipped,
      ignored: result.ignored,
    };
    const ignored =
      result.ignored > 0 ? `; ${result.ignored} figures of series Waybill does not use were left out` : "";
    return {
      exitCode: 0,
      output: options.json
        ? JSON.stringify(summary)
        : result.added > 0
          ? `imported ${result.added} new observations from ${file} as ${result.importId} (${result.skipped} already stored, skipped${ignored})`
          : `nothing new in ${file}: all ${result.skipped} observations are already stored${ignored}`,
    };
  } catch (error) {
    if (error instanceof ImportFormatError)
      return fail(`${basename(file)} is not a valid ${source.toUpperCase()} file: ${error.message}`);
    if (error instanceof RefusedDataError) return fail(`${basename(file)} refused: ${error.message}`);
    throw error;
  }
}

/** `waybill data retract IMPORT_ID --reason TEXT`: hides a bad import from every view from now on. */
export async function dataRetract(
  db: Store,
  importId: string,
  reason: string,
  options: Options = {},
): Promise<CommandResult> {
  if (await isRoadNetworkVersion(db, importId)) return roadsRetract(db, importId, reason, options);
  try {
    const done = await retractImport(db, importId, reason, options.now ?? Date.now());
    const summary = {
      import_id: done.importId,
      reason: done.reason,
      retracted_at: new Date(done.retractedAt).toISOString(),
      observations: done.observations,
    };
    return {
      exitCode: 0,
      output: options.json
        ? JSON.stringify(summary)
        : `retracted ${done.importId} (${done.observations} observations) at ${summary.retracted_at}: ${done.reason}; receipts signed before keep their figures`,
    };
  } catch (error) {
    if (!(error instanceof RetractionError)) throw error;
    return failure(options.json ?? false, error.message);
  }
}
