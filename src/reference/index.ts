import type { Db } from "../db/client.ts";
import { createRoadNetworks } from "./roads/store.ts";
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
  const roads = createRoadNetworks(db);
  return {
    ...store,
    // Each view carries the road network known at its moment, so a replayed receipt routes on the same network.
    view(asOf, knownAt) {
      const view = store.view(asOf, knownAt);
      const network = roads.knownAt(knownAt);
      return Object.assign(view, { roads: network, figures: view.figures && `${view.figures}+${network.version}` });
    },
    reload() {
      roads.reload();
      return store.reload();
    },
    loadSnapshot(now) {
      const result = loadSnapshot(db, now);
      if (!result.alreadyLoaded) store.reload();
      return result;
    },
  };
}
