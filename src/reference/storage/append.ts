import { inArray } from "drizzle-orm";
import type { Store } from "../../db/client.ts";
import { announceChange } from "../../db/changes.ts";
import { inTransaction, oneWriterAtATime } from "../../db/transaction.ts";
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

/** Imports take turns, so two replicas loading the snapshot at once (or two imports of one file) store it once. */
const IMPORT_LOCK = 0x57a7_da7a;

/** Rows per INSERT and series per lookup: well under both engines' limits on bound parameters. */
const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += CHUNK) out.push(items.slice(at, at + CHUNK));
  return out;
}

const figureKey = (seriesId: string, observedOn: string, value: number) =>
  `${seriesId}\u0000${observedOn}\u0000${value}`;

/** Every (series, date, value) already stored for the given series, by figureKey. */
async function storedFigures(tx: Store, seriesIds: readonly string[]): Promise<Set<string>> {
  const { observations: o } = tx.t;
  const found = new Set<string>();
  for (const some of chunks(seriesIds)) {
    const rows = await tx
      .select({ seriesId: o.seriesId, observedOn: o.observedOn, value: o.value })
      .from(o)
      .where(inArray(o.seriesId, some));
    for (const row of rows) found.add(figureKey(row.seriesId, row.observedOn, row.value));
  }
  return found;
}

/**
 * Stores figures as one import, in one transaction, after every one passed the door (admit.ts): a
 * refusal throws before anything is written. A figure already stored with the same value for the
 * same series and date (from any earlier import) is skipped, so re-importing a file adds nothing; a
 * different value for an old date is a revision and is added beside the old one, never over it.
 * When nothing is new, no import row is written either. What is stored is read per series in one
 * query, not per figure: on PostgreSQL each query is a round trip.
 */
export async function appendObservations(
  db: Store,
  source: ImportSource,
  rows: Iterable<ParsedObservation>,
  now: number,
  options: AdmitOptions = { today: new Date(now).toISOString().slice(0, 10) },
): Promise<AppendResult> {
  const admitted = admitObservations(rows, options);
  return inTransaction(db, async (tx) => {
    await oneWriterAtATime(tx, IMPORT_LOCK);
    const stored = await storedFigures(tx, [...new Set(admitted.rows.map((row) => row.seriesId))]);
    const fresh = admitted.rows.filter((row) => !stored.has(figureKey(row.seriesId, row.observedOn, row.value)));
    const skipped = admitted.rows.length + admitted.repeated - fresh.length;
    if (fresh.length > 0) {
      await tx.insert(tx.t.dataImports).values({
        id: source.importId,
        source: source.source,
        fileName: source.fileName,
        fileSha256: source.fileSha256,
        importedAt: now,
        rowsAdded: fresh.length,
        rowsSkipped: skipped,
      });
      for (const some of chunks(fresh)) {
        await tx.insert(tx.t.observations).values(
          some.map((row) => ({
            seriesId: row.seriesId,
            observedOn: row.observedOn,
            value: row.value,
            importId: source.importId,
            fetchedAt: now,
            publishedOn: row.publishedOn,
          })),
        );
      }
      await announceChange(tx); // replicas on PostgreSQL read the new figures (src/db/changes.ts)
    }
    return { importId: source.importId, added: fresh.length, skipped, ignored: admitted.ignored };
  });
}

export const sha256Hex = (content: string | Uint8Array): string =>
  new Bun.CryptoHasher("sha256").update(content).digest("hex");
