import type { Db } from "../../db/client.ts";
import { appendObservations, sha256Hex, type AppendResult, type ParsedObservation } from "../append.ts";
import { snapshotPoints, type SnapshotFile } from "./format.ts";
// A static JSON import: the bundler embeds the figures in the compiled binary.
import figures from "./figures.json";

export const snapshot = figures as SnapshotFile;
export const snapshotImportId = (version = snapshot.version): string => `imp_snapshot_${version}`;

export function snapshotObservations(file: SnapshotFile = snapshot): ParsedObservation[] {
  return file.series.flatMap((series) =>
    [...snapshotPoints(series)].map(([observedOn, value]) => ({ seriesId: series.id, observedOn, value })),
  );
}

/** Describes every series the snapshot ships: title, unit and the source figures were carried from. */
export const snapshotSeriesInfo = new Map(snapshot.series.map(({ id, title, unit, source }) => [id, { title, unit, source }]));

/**
 * Loads the embedded snapshot into the observation table under `imp_snapshot_<version>`.
 * Idempotent: once that import exists nothing happens, so restarts add nothing.
 */
export function loadSnapshot(db: Db, now: number): AppendResult & { alreadyLoaded: boolean } {
  const importId = snapshotImportId();
  const exists = db.$client.prepare("SELECT 1 FROM data_imports WHERE id = ?").get(importId);
  if (exists) return { importId, added: 0, skipped: 0, alreadyLoaded: true };
  const result = appendObservations(
    db,
    { importId, source: "snapshot", fileName: `embedded:figures.json@${snapshot.version}`, fileSha256: sha256Hex(JSON.stringify(snapshot)) },
    snapshotObservations(),
    now,
  );
  return { ...result, alreadyLoaded: false };
}
