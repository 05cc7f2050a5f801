import type { Db } from "../db/client.ts";
import { loadSnapshot } from "./snapshot/index.ts";
import { createReferenceStore, type ReferenceStore } from "./store.ts";

export type { ReferenceStore } from "./store.ts";
export { warmGazetteer } from "./places.ts";

export interface ReferenceDataService extends ReferenceStore {
  /** Loads the embedded snapshot once per snapshot version (a no-op on restart), then refreshes the cache. */
  loadSnapshot(now: number): { importId: string; added: number; alreadyLoaded: boolean };
}

/**
 * The reference-data layer over one database. Use:
 *   const referenceData = createReferenceData(db);
 *   referenceData.loadSnapshot(clock.now());            // at start
 *   referenceData.view(asOf, clock.now())                // per call: ReferenceView for the handler
 */
export function createReferenceData(db: Db): ReferenceDataService {
  const store = createReferenceStore(db);
  return {
    ...store,
    loadSnapshot(now) {
      const result = loadSnapshot(db, now);
      if (!result.alreadyLoaded) store.reload();
      return result;
    },
  };
}
