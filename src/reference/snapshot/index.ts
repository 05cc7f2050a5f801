import { and, count, eq, isNull } from "drizzle-orm";
import type { Store } from "../../db/client.ts";
import { first, inTransaction } from "../../db/transaction.ts";
import type { ParsedObservation } from "../storage/admit.ts";
import { appendObservations, sha256Hex, type AppendResult } from "../storage/append.ts";
import { snapshotPoints, type SnapshotFile } from "./format.ts";
// A static JSON import: the bundler embeds the figures in the compiled binary.
import figures from "./figures.json";

export const snapshot = figures as SnapshotFile;
export const snapshotImportId = (version = snapshot.version): string => `imp_snapshot_${version}`;

export function snapshotObservations(file: SnapshotFile = snapshot): (ParsedObservation & { publishedOn: string })[] {
  return file.series.flatMap((series) =>
    [...snapshotPoints(series)].map(([observedOn, value, publishedOn]) => ({
      seriesId: series.id,
      observedOn,
      value,
      publishedOn,
    })),
  );
}

/** Describes every series the snapshot ships: title, unit and the source its figures were carried from. */
export const snapshotSeriesInfo = new Map(
  snapshot.series.map(({ id, title, unit, source }) => [
    id,
    { title, unit, source: `${snapshot.sources[source] ?? ""} (${source})` },
  ]),
);

/**
 * Rows stored before publication dates were recorded have none; the snapshot knows them for the
 * figures it shipped, so they get them once (the only column ever filled in after the fact).
 */
async function backfillPublication(db: Store): Promise<void> {
  const { observations: o } = db.t;
  const missing = await first(db.select({ n: count() }).from(o).where(isNull(o.publishedOn)));
  if (!missing?.n) return;
  await inTransaction(db, async (tx) => {
    for (const row of snapshotObservations()) {
      await tx
        .update(o)
        .set({ publishedOn: row.publishedOn })
        .where(and(eq(o.seriesId, row.seriesId), eq(o.observedOn, row.observedOn), isNull(o.publishedOn)));
    }
  });
}

/**
 * Loads the embedded snapshot into the observation table under `imp_snapshot_<version>`.
 * Idempotent: once that import exists nothing happens, so restarts add nothing.
 */
export async function loadSnapshot(db: Store, now: number): Promise<AppendResult & { alreadyLoaded: boolean }> {
  const importId = snapshotImportId();
  const { dataImports } = db.t;
  if (await first(db.select({ id: dataImports.id }).from(dataImports).where(eq(dataImports.id, importId)))) {
    return { importId, added: 0, skipped: 0, ignored: 0, alreadyLoaded: true };
  }
  await backfillPublication(db);
  const result = await appendObservations(
    db,
    {
      importId,
      source: "snapshot",
      fileName: `embedded:figures.json@${snapshot.version}`,
      fileSha256: sha256Hex(JSON.stringify(snapshot)),
    },
    snapshotObservations(),
    now,
    {}, // checked against the door when generated; loading it at any clock time is fine
  );
  return { ...result, alreadyLoaded: false };
}
