import { LRUCache } from "lru-cache";
import type { Point } from "../../reference/geo/distance.ts";
import { resolvePlace, type PlaceResolution } from "../../reference/geo/places.ts";
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

/** Place texts remembered; longer texts are resolved every time (they are rare, and would make the cache large). */
const PLACES = 20_000;
const LONGEST_REMEMBERED_TEXT = 100;
const places = new LRUCache<string, PlaceResolution>({ max: PLACES });

/**
 * resolvePlace, remembered per text: the gazetteer is built into the binary and never changes while
 * the server runs, so the same text always resolves the same way (≈ 4 µs each, twice per lane).
 */
export function cachedPlaceResolution(text: string): PlaceResolution {
  if (text.length > LONGEST_REMEMBERED_TEXT) return resolvePlace(text);
  let resolution = places.get(text);
  if (!resolution) {
    resolution = resolvePlace(text);
    deepFreeze(resolution);
    places.set(text, resolution);
  }
  return resolution;
}

function deepFreeze(value: object): void {
  for (const member of Object.values(value)) if (typeof member === "object" && member !== null) deepFreeze(member);
  Object.freeze(value);
}
