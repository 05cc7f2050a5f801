/**
 * `waybill data import fmcsa FILE`, as a function the CLI and the data sync both call: stream the
 * census once, refuse it whole if it is mostly garbage or its date does not add up, then store the
 * aggregates as one import in one transaction (docs/carrier-capacity.md#the-census-import).
 */
import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { ulid } from "ulid";
import type { Store } from "../../db/client.ts";
import { appendObservations } from "../storage/append.ts";
import { ImportFormatError } from "./common.ts";
import type { ParsedObservation } from "../storage/append.ts";
import {
  aggregateCensusPages,
  censusObservations,
  checkCensusQuality,
  snapshotDateFromFileName,
  type CensusAggregate,
  type CensusProgress,
} from "./fmcsa-census.ts";

/** A filing newer than the snapshot date by more than this means the date given (or read from the name) is wrong. */
const FILING_AFTER_SNAPSHOT_DAYS = 31;
const DAY_MS = 86_400_000;

export interface CensusImportOptions {
  /** YYYY-MM-DD the census describes; default: from the file name, else its newest filing. */
  snapshotDate?: string;
  /** ms epoch of the import. */
  now: number;
  /** Called every 65,536 rows and at the end, with the file's size for a progress bar. */
  onProgress?: (progress: CensusProgress & { totalBytes: number }) => void;
}

/** The aggregate's counts (not its cells), the census's totals, its date and what was stored. */
export interface CensusImportResult extends Omit<CensusAggregate, "cells" | "newestFiling"> {
  importId: string | null;
  file: string;
  snapshotDate: string;
  snapshotDateFrom: SnapshotDateFrom;
  carriers: number;
  powerUnits: number;
  drivers: number;
  added: number;
  skipped: number;
}

const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Where a census's snapshot date came from: given, the file name, the publisher's last-modified date, or its newest filing. */
type SnapshotDateFrom = "option" | "file name" | "publisher" | "newest filing";

function resolveSnapshotDate(
  name: string,
  aggregate: CensusAggregate,
  given: { date: string; from: SnapshotDateFrom } | undefined,
  now: number,
) {
  const fromName = snapshotDateFromFileName(name);
  const { date, from } =
    given ??
    (fromName
      ? { date: fromName, from: "file name" as const }
      : { date: aggregate.newestFiling, from: "newest filing" as const });
  if (!date)
    throw new ImportFormatError(
      "no snapshot date: the file name carries none and no row has a filing date; pass --date YYYY-MM-DD",
    );
  const today = new Date(now).toISOString().slice(0, 10);
  if (date > today) throw new ImportFormatError(`snapshot date ${date} is in the future`);
  if (aggregate.newestFiling && aggregate.newestFiling > addDays(date, FILING_AFTER_SNAPSHOT_DAYS)) {
    throw new ImportFormatError(
      `a row was filed on ${aggregate.newestFiling}, after the snapshot date ${date} (${from}); pass the census's real date with --date YYYY-MM-DD`,
    );
  }
  return { date, from };
}

/** A census read and checked, not stored yet: its aggregate figures as observations, and what the summary reports. */
export interface CensusReading {
  observations: ParsedObservation[];
  aggregate: CensusAggregate;
  snapshotDate: string;
  snapshotDateFrom: SnapshotDateFrom;
}

/**
 * Aggregates a census (one file, or an export's pages), refuses it whole when it is mostly garbage or
 * its date does not add up, and returns the figures to store. `name` is the file name, for its date.
 */
export async function readCensus(
  pages: Parameters<typeof aggregateCensusPages>[0],
  options: {
    name: string;
    /** The date given for the census, asked once every page was read (a paged source learns it from its first answer). */
    givenDate?: () => { date: string; from: SnapshotDateFrom } | undefined;
    now: number;
    onProgress?: (progress: CensusProgress) => void;
  },
): Promise<CensusReading> {
  const aggregate = await aggregateCensusPages(pages, options.onProgress);
  checkCensusQuality(aggregate);
  const snapshot = resolveSnapshotDate(options.name, aggregate, options.givenDate?.(), options.now);
  return {
    observations: censusObservations(aggregate, snapshot.date),
    aggregate,
    snapshotDate: snapshot.date,
    snapshotDateFrom: snapshot.from,
  };
}

export async function importFmcsaCensus(
  db: Store,
  file: string,
  options: CensusImportOptions,
): Promise<CensusImportResult> {
  const totalBytes = statSync(file).size;
  const { onProgress } = options;
  const input = createReadStream(file);
  const hasher = new Bun.CryptoHasher("sha256");
  input.on("data", (chunk) => hasher.update(chunk));
  let reading: CensusReading;
  try {
    reading = await readCensus(async (page) => (page === 0 ? input : undefined), {
      name: basename(file),
      givenDate: () => (options.snapshotDate ? { date: options.snapshotDate, from: "option" } : undefined),
      now: options.now,
      onProgress: onProgress && ((progress) => onProgress({ ...progress, totalBytes })),
    });
  } finally {
    input.destroy();
  }
  const { aggregate } = reading;
  const stored = await appendObservations(
    db,
    {
      importId: `imp_${ulid(options.now)}`,
      source: "fmcsa",
      fileName: basename(file),
      fileSha256: hasher.digest("hex"),
    },
    reading.observations,
    options.now,
  );
  const totals = [...aggregate.cells.values()].reduce(
    (sum, cell) => ({
      carriers: sum.carriers + cell.carriers,
      powerUnits: sum.powerUnits + cell.powerUnits,
      drivers: sum.drivers + cell.drivers,
    }),
    { carriers: 0, powerUnits: 0, drivers: 0 },
  );
  const { cells: _cells, newestFiling: _newest, ...counts } = aggregate;
  return {
    ...counts,
    importId: stored.added > 0 ? stored.importId : null,
    file: basename(file),
    snapshotDate: reading.snapshotDate,
    snapshotDateFrom: reading.snapshotDateFrom,
    ...totals,
    added: stored.added,
    skipped: stored.skipped,
  };
}
