import { existsSync, statSync } from "node:fs";
import type { Store } from "../db/client.ts";
import { importFmcsaCensus, type CensusImportResult } from "../reference/importers/census-import.ts";
import { ImportFormatError } from "../reference/importers/common.ts";
import { importProgress } from "./import-progress.ts";
import { EXIT, UsageError, type CommandResult } from "./result.ts";

interface Options {
  json?: boolean;
  /** --date YYYY-MM-DD: the census's snapshot date when its file name does not carry one. */
  date?: string;
  now?: number;
  /** Where progress goes; stderr by default, so stdout stays one result. */
  progress?: { isTTY: boolean; write: (text: string) => void };
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
export async function dataImportCensus(db: Store, file: string, options: Options = {}): Promise<CommandResult> {
  if (options.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.date))
    throw new UsageError(`--date must be YYYY-MM-DD, not '${options.date}'`);
  const fail = (message: string): CommandResult => ({
    exitCode: EXIT.failed,
    output: options.json ? JSON.stringify({ error: message }) : `error: ${message}`,
  });
  if (!existsSync(file)) return fail(`cannot read ${file}: ENOENT`);
  const sink = options.progress ?? {
    isTTY: process.stderr.isTTY === true,
    write: (text: string) => process.stderr.write(text),
  };
  const onProgress = importProgress(statSync(file).size, { json: options.json === true, ...sink });
  try {
    const result = await importFmcsaCensus(db, file, {
      snapshotDate: options.date,
      now: options.now ?? Date.now(),
      onProgress: onProgress && (({ bytesRead }) => onProgress(bytesRead)),
    });
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
    if (error instanceof ImportFormatError)
      return fail(`${file} is not a usable FMCSA census file: ${error.message}; nothing was imported`);
    throw error;
  }
}
