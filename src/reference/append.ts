import type { Db } from "../db/client.ts";
import { admitObservations, type AdmitOptions, type ParsedObservation } from "./admit.ts";

export { RefusedDataError, type ParsedObservation } from "./admit.ts";

export interface ImportSource {
  importId: string;
  /** eia | fred | bls | ams | cass | ata | fmcsa | snapshot, or `<source>-sync` for an online fetch. */
  source: string;
  fileName: string;
  fileSha256: string;
}

export interface AppendResult {
  importId: string;
  added: number;
  skipped: number;
  /** Figures of series the product does not use, dropped before storing. */
  ignored: number;
}

/**
 * Stores figures as one import, in one transaction, after every one passed the door (admit.ts): a
 * refusal throws before anything is written. A figure already stored with the same value for the
 * same series and date (from any earlier import) is skipped, so re-importing a file adds nothing; a
 * different value for an old date is a revision and is added beside the old one, never over it.
 * When nothing is new, no import row is written either.
 */
export function appendObservations(
  db: Db,
  source: ImportSource,
  rows: Iterable<ParsedObservation>,
  now: number,
  options: AdmitOptions = { today: new Date(now).toISOString().slice(0, 10) },
): AppendResult {
  const admitted = admitObservations(rows, options);
  const sqlite = db.$client;
  const alreadyStored = sqlite.prepare<{ found: number }, [string, string, number]>(
    "SELECT 1 AS found FROM observations WHERE series_id = ? AND observed_on = ? AND value = ? LIMIT 1",
  );
  const insertImport = sqlite.prepare(
    "INSERT INTO data_imports (id, source, file_name, file_sha256, imported_at, rows_added, rows_skipped) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const insertObservation = sqlite.prepare("INSERT INTO observations (series_id, observed_on, value, import_id, fetched_at, published_on) VALUES (?, ?, ?, ?, ?, ?)");
  return sqlite.transaction(() => {
    const fresh = admitted.rows.filter((row) => !alreadyStored.get(row.seriesId, row.observedOn, row.value));
    const skipped = admitted.rows.length + admitted.repeated - fresh.length;
    if (fresh.length > 0) {
      insertImport.run(source.importId, source.source, source.fileName, source.fileSha256, now, fresh.length, skipped);
      for (const row of fresh) insertObservation.run(row.seriesId, row.observedOn, row.value, source.importId, now, row.publishedOn);
    }
    return { importId: source.importId, added: fresh.length, skipped, ignored: admitted.ignored };
  })();
}

export const sha256Hex = (content: string | Uint8Array): string => new Bun.CryptoHasher("sha256").update(content).digest("hex");
