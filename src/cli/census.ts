import { SingleBar } from "cli-progress";
import { existsSync } from "node:fs";
import type { Db } from "../db/client.ts";
import { importFmcsaCensus, type CensusImportOptions, type CensusImportResult } from "../reference/importers/census-import.ts";
import { ImportFormatError } from "../reference/importers/common.ts";
import { EXIT, UsageError, type CommandResult } from "./result.ts";

interface Options {
  json?: boolean;
  /** --date YYYY-MM-DD: the census's snapshot date when its file name does not carry one. */
  date?: string;
  now?: number;
  /** Where progress goes; stderr by default, so stdout stays one result. */
  progress?: NodeJS.WriteStream;
}

type Progress = NonNullable<CensusImportOptions["onProgress"]>;

/** A bar on a terminal; one JSON line per step with --json; nothing when piped without --json. */
function progressReporter(stream: NodeJS.WriteStream, json: boolean): { report?: Progress; stop(): void } {
  if (json) {
    return {
      report: ({ bytesRead, totalBytes, rows }) => stream.write(`${JSON.stringify({ progress: { bytes_read: bytesRead, total_bytes: totalBytes, rows } })}\n`),
      stop() {},
    };
  }
  if (!stream.isTTY) return { stop() {} };
  const bar = new SingleBar({ stream, format: "census [{bar}] {percentage}% | {rows} rows | {eta}s left", hideCursor: true });
  let started = false;
  return {
    report: ({ bytesRead, totalBytes, rows }) => {
      if (!started) bar.start(totalBytes, 0, { rows: 0 }), (started = true);
      bar.update(bytesRead, { rows });
    },
    stop: () => started && bar.stop(),
  };
}

function summaryText(result: CensusImportResult): string {
  const head =
    result.added > 0
      ? `imported the FMCSA census of ${result.snapshotDate} (date from ${result.snapshotDateFrom}) as ${result.importId}: ${result.added} aggregate figures`
      : `nothing new: the census of ${result.snapshotDate} is already stored (${result.skipped} figures)`;
  return [
    head,
    `  ${result.rows} rows read: ${result.counted} for-hire carriers counted (${result.carriers} carriers, ${result.powerUnits} power units, ${result.drivers} drivers),`,
    `  ${result.notForHire} not for hire, ${result.outsideStates} outside the 50 states and DC, ${result.malformed} malformed`,
    ...result.malformedExamples.map((example) => `  malformed ${example}`),
  ].join("\n");
}

/** `waybill data import fmcsa FILE [--date YYYY-MM-DD]`: the census reduced to counts by state and operation. */
export async function dataImportCensus(db: Db, file: string, options: Options = {}): Promise<CommandResult> {
  if (options.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.date)) throw new UsageError(`--date must be YYYY-MM-DD, not '${options.date}'`);
  const fail = (message: string): CommandResult => ({ exitCode: EXIT.failed, output: options.json ? JSON.stringify({ error: message }) : `error: ${message}` });
  if (!existsSync(file)) return fail(`cannot read ${file}: ENOENT`);
  const progress = progressReporter(options.progress ?? process.stderr, options.json === true);
  try {
    const result = await importFmcsaCensus(db, file, { snapshotDate: options.date, now: options.now ?? Date.now(), onProgress: progress.report });
    progress.stop();
    return {
      exitCode: EXIT.ok,
      output: options.json
        ? JSON.stringify({
            import_id: result.importId,
            source: "fmcsa",
            file,
            snapshot_date: result.snapshotDate,
            snapshot_date_from: result.snapshotDateFrom,
            rows: result.rows,
            counted: result.counted,
            not_for_hire: result.notForHire,
            outside_states: result.outsideStates,
            malformed: result.malformed,
            malformed_examples: result.malformedExamples,
            totals: { carriers: result.carriers, power_units: result.powerUnits, drivers: result.drivers },
            added: result.added,
            skipped: result.skipped,
          })
        : summaryText(result),
    };
  } catch (error) {
    progress.stop();
    if (error instanceof ImportFormatError) return fail(`${file} is not a usable FMCSA census file: ${error.message}; nothing was imported`);
    throw error;
  }
}
