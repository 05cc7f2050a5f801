import { greatCircleMiles, type Point } from "../geo/distance.ts";

/** A hand-drawn region as [lon, lat] vertices in order (closed implicitly), coarse enough to test in plane degrees. */
export type Outline = readonly (readonly [number, number])[];

/** Even-odd rule over the outline's edges (planar in degrees: the outlines are coarse to about 30 mi anyway). */
export function insideOutline(outline: Outline, point: Point): boolean {
  let previous = outline.at(-1);
  if (!previous) return false;
  let inside = false;
  for (const vertex of outline) {
    const [x1, y1] = vertex;
    const [x2, y2] = previous;
    previous = vertex;
    if (y1 > point.lat !== y2 > point.lat && point.lon < x1 + ((point.lat - y1) * (x2 - x1)) / (y2 - y1))
      inside = !inside;
  }
  return inside;
}

/** Sample spacing along a straight line when asking how much of it lies in an outline. */
const SAMPLE_MILES = 10;

/** Points every 10 mi along the straight line from a to b, both ends included. */
export function alongLine(a: Point, b: Point): Point[] {
  const steps = Math.max(1, Math.ceil(greatCircleMiles(a, b) / SAMPLE_MILES));
  return Array.from({ length: steps + 1 }, (_, k) => ({
    lat: a.lat + (k / steps) * (b.lat - a.lat),
    lon: a.lon + (k / steps) * (b.lon - a.lon),
  }));
}
