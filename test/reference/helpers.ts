import { join } from "node:path";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { createReferenceData } from "../../src/reference/index.ts";

export const FIXTURES = join(import.meta.dir, "..", "fixtures");
export const fixture = (name: string) => join(FIXTURES, name);

/** Load time of the snapshot in these tests; views use it (or later) as knownAt. */
export const LOADED_AT = Date.parse("2026-11-22T12:00:00Z");

export async function snapshotReferenceData(loadedAt = LOADED_AT) {
  const db = openMemoryDatabase();
  const data = createReferenceData(db);
  await data.loadSnapshot(loadedAt);
  return { db, data };
}
