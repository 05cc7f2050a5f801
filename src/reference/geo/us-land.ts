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

interface Outline {
  south: number;
  /** Per band of latitude: the edges spanning it, as x1, y1, x2, y2 runs. */
  bands: number[][];
}

let outline: Outline | undefined;

function loadOutline(): Outline {
  const topology = nation as unknown as Parameters<typeof feature>[0];
  const shape = feature(topology, topology.objects.nation!);
  const geometries = "features" in shape ? shape.features.map((f) => f.geometry) : [shape.geometry];
  const rings: number[][][] = [];
  for (const geometry of geometries) {
    if (geometry.type === "Polygon") rings.push(...geometry.coordinates);
    if (geometry.type === "MultiPolygon") rings.push(...geometry.coordinates.flat());
  }
  const south = Math.min(...rings.map((ring) => Math.min(...ring.map((c) => c[1]!))));
  const bands: number[][] = [];
  for (const ring of rings) {
    for (let k = 0; k < ring.length; k++) {
      const [x1, y1] = ring[k]!;
      const [x2, y2] = ring[(k + 1) % ring.length]!;
      const first = Math.floor((Math.min(y1!, y2!) - south) / BAND_DEGREES);
      const last = Math.floor((Math.max(y1!, y2!) - south) / BAND_DEGREES);
      for (let band = first; band <= last; band++) {
        const edges = bands[band] ?? [];
        edges.push(x1!, y1!, x2!, y2!);
        bands[band] = edges;
      }
    }
  }
  return { south, bands };
}

export function onUsLand(point: Point): boolean {
  outline ??= loadOutline();
  const edges = outline.bands[Math.floor((point.lat - outline.south) / BAND_DEGREES)];
  if (!edges) return false;
  let inside = false;
  for (let k = 0; k < edges.length; k += 4) {
    const x1 = edges[k]!;
    const y1 = edges[k + 1]!;
    const x2 = edges[k + 2]!;
    const y2 = edges[k + 3]!;
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
