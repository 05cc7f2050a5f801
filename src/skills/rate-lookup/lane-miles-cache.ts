import { LRUCache } from "lru-cache";
import type { Point } from "../../reference/distance.ts";
import { roadMiles, type RoadMiles, type RoadNetwork } from "../../reference/roads/index.ts";

/**
 * Lanes remembered per network. A shortest path on the Interstate graph costs ≈ 150 µs, most of an
 * answered call; the same lanes are asked for again and again, and a network never changes once
 * built (an import is a new network), so its answers can be kept. Bounded: the least recently
 * asked lanes go first.
 */
const LANES_PER_NETWORK = 20_000;

const caches = new WeakMap<RoadNetwork, LRUCache<string, RoadMiles>>();

/** roadMiles, remembered per network and per (origin, destination) point: the same lane always gets the same miles. */
export function cachedRoadMiles(network: RoadNetwork, origin: Point, destination: Point): RoadMiles {
  let cache = caches.get(network);
  if (!cache) {
    cache = new LRUCache({ max: LANES_PER_NETWORK });
    caches.set(network, cache);
  }
  const key = `${origin.lat},${origin.lon}>${destination.lat},${destination.lon}`;
  let miles = cache.get(key);
  if (!miles) {
    miles = Object.freeze(roadMiles(network, origin, destination));
    if (miles.method === "ROAD_NETWORK") Object.freeze(miles.connectorMiles);
    cache.set(key, miles);
  }
  return miles;
}
