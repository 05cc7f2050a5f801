import type { Store } from "../db/client.ts";
import { createRoadNetworks } from "./roads/store.ts";
import { loadSnapshot } from "./snapshot/index.ts";
import { createReferenceStore, type ReferenceStore } from "./storage/store.ts";

export type { ReferenceStore } from "./storage/store.ts";
export { warmGazetteer } from "./geo/places.ts";

export interface ReferenceDataService extends ReferenceStore {
  /** Loads the embedded snapshot once per snapshot version (a no-op on restart), then reads the figures and road networks. */
  loadSnapshot(now: number): Promise<{ importId: string; added: number; alreadyLoaded: boolean }>;
}

/**
 * The reference-data layer over one database. Use:
 *   const referenceData = createReferenceData(db);
 *   await referenceData.loadSnapshot(clock.now());      // at start
 *   referenceData.view(asOf, clock.now())                // per call: ReferenceView for the handler
 */
export function createReferenceData(db: Store): ReferenceDataService {
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
    // Both start at once, so on SQLite both drop what changed before this returns.
    reload: async () => (await Promise.all([roads.reload(), store.reload()]))[1],
    async loadSnapshot(now) {
      const result = await loadSnapshot(db, now);
      await roads.reload();
      await store.reload();
      return result;
    },
  };
}
