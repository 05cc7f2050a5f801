import type { Db } from "../../db/client.ts";
import type { ParsedObservation } from "../admit.ts";
import { appendObservations, sha256Hex, type AppendResult } from "../append.ts";
import { snapshotPoints, type SnapshotFile } from "./format.ts";
// A static JSON import: the bundler embeds the figures in the compiled binary.
import figures from "./figures.json";

export const snapshot = figures as SnapshotFile;
export const snapshotImportId = (version = snapshot.version): string => `imp_snapshot_${version}`;

export function snapshotObservations(file: SnapshotFile = snapshot): ParsedObservation[] {
  return file.series.flatMap((series) =>
    [...snapshotPoints(series)].map(([observedOn, value, publishedOn]) => ({ seriesId: series.id, observedOn, value, publishedOn })),
  );
}

/** Describes every series the snapshot ships: title, unit and the source its figures were carried from. */
export const snapshotSeriesInfo = new Map(
  snapshot.series.map(({ id, title, unit, source }) => [id, { title, unit, source: `${snapshot.sources[source] ?? ""} (${source})` }]),
);

/**
 * Rows stored before publication dates were recorded have none; the snapshot knows them for the
 * figures it shipped, so they get them once (the only column ever filled in after the fact).
 */
function backfillPublication(db: Db): void {
  const missing = db.$client.prepare<{ n: number }, []>("SELECT count(*) AS n FROM observations WHERE published_on IS NULL").get();
  if (!missing?.n) return;
  const fill = db.$client.prepare("UPDATE observations SET published_on = ? WHERE series_id = ? AND observed_on = ? AND published_on IS NULL");
  db.$client.transaction(() => {
    for (const row of snapshotObservations()) fill.run(row.publishedOn!, row.seriesId, row.observedOn);
  })();
}

/**
 * Loads the embedded snapshot into the observation table under `imp_snapshot_<version>`.
 * Idempotent: once that import exists nothing happens, so restarts add nothing.
 */
export function loadSnapshot(db: Db, now: number): AppendResult & { alreadyLoaded: boolean } {
  const importId = snapshotImportId();
  const exists = db.$client.prepare("SELECT 1 FROM data_imports WHERE id = ?").get(importId);
  if (exists) return { importId, added: 0, skipped: 0, ignored: 0, alreadyLoaded: true };
  backfillPublication(db);
  const result = appendObservations(
    db,
    { importId, source: "snapshot", fileName: `embedded:figures.json@${snapshot.version}`, fileSha256: sha256Hex(JSON.stringify(snapshot)) },
    snapshotObservations(),
    now,
    {}, // checked against the door when generated; loading it at any clock time is fine
  );
  return { ...result, alreadyLoaded: false };
}
