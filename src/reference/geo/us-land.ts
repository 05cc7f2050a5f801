import { feature } from "topojson-client";
import nation from "us-atlas/nation-10m.json" with { type: "json" };
import { greatCircleMiles, type Point } from "./distance.ts";

/**
 * The land of the United States: the Census Bureau's cartographic nation outline (us-atlas, 1:10m), which
 * follows the sea and Great Lakes shorelines and the borders, so lakes, the sea, Canada and Mexico are all
 * "not US land" (docs/rate-model.md, "Road miles").
 *
 * Inside or not is the even-odd rule over every ring's edges (the outline's polygons do not overlap, and a
 * lake inside land is a ring of its own). The edges are kept in bands of latitude so a point only looks at the
 * edges its eastward ray can cross: the mainland's outline alone has thousands of points.
 */
const BAND_DEGREES = 0.1;

/** One edge of a ring: from (x1, y1) to (x2, y2), longitude and latitude. */
type Edge = readonly [x1: number, y1: number, x2: number, y2: number];

interface Outline {
  south: number;
  /** Per band of latitude: the edges spanning it. */
  bands: Edge[][];
}

let outline: Outline | undefined;

/** A GeoJSON position as longitude and latitude (every position carries both). */
function lonLat(position: number[]): readonly [lon: number, lat: number] {
  const [lon, lat] = position;
  if (lon === undefined || lat === undefined) throw new Error("the nation outline has a position without lon/lat");
  return [lon, lat];
}

function loadOutline(): Outline {
  const topology = nation as unknown as Parameters<typeof feature>[0];
  const { nation: nationObject } = topology.objects;
  if (!nationObject) throw new Error("the bundled us-atlas topology has no 'nation' object");
  const shape = feature(topology, nationObject);
  const geometries = "features" in shape ? shape.features.map((f) => f.geometry) : [shape.geometry];
  const positions: number[][][] = [];
  for (const geometry of geometries) {
    if (geometry.type === "Polygon") positions.push(...geometry.coordinates);
    if (geometry.type === "MultiPolygon") positions.push(...geometry.coordinates.flat());
  }
  const rings = positions.map((ring) => ring.map(lonLat));
  const south = Math.min(...rings.map((ring) => Math.min(...ring.map(([, lat]) => lat))));
  const bands: Edge[][] = [];
  for (const ring of rings) {
    // Each vertex with the one before it, the last closing the ring onto the first.
    const closing = ring.at(-1);
    if (!closing) continue;
    let [x1, y1] = closing;
    for (const [x2, y2] of ring) {
      const first = Math.floor((Math.min(y1, y2) - south) / BAND_DEGREES);
      const last = Math.floor((Math.max(y1, y2) - south) / BAND_DEGREES);
      for (let band = first; band <= last; band++) {
        const edges = bands[band] ?? [];
        edges.push([x1, y1, x2, y2]);
        bands[band] = edges;
      }
      x1 = x2;
      y1 = y2;
    }
  }
  return { south, bands };
}

export function onUsLand(point: Point): boolean {
  outline ??= loadOutline();
  const edges = outline.bands[Math.floor((point.lat - outline.south) / BAND_DEGREES)];
  if (!edges) return false;
  let inside = false;
  for (const [x1, y1, x2, y2] of edges) {
    if (y1 > point.lat !== y2 > point.lat && point.lon < x1 + ((point.lat - y1) * (x2 - x1)) / (y2 - y1))
      inside = !inside;
  }
  return inside;
}

/** Sample spacing along a line when measuring how much of it lies off US land. */
const SAMPLE_MILES = 1;

/** The longest stretch of the straight line between two places that lies off US land (over water or abroad), in miles. */
export function longestOffLandMiles(a: Point, b: Point): number {
  const length = greatCircleMiles(a, b);
  const steps = Math.max(1, Math.ceil(length / SAMPLE_MILES));
  let longest = 0;
  let run = 0;
  for (let k = 0; k <= steps; k++) {
    const t = k / steps;
    const offLand = !onUsLand({ lat: a.lat + t * (b.lat - a.lat), lon: a.lon + t * (b.lon - a.lon) });
    run = offLand ? run + length / steps : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
