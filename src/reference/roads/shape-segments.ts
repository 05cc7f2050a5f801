import Flatbush from "flatbush";
import type { Point } from "../geo/distance.ts";
import { COORDINATE_SCALE } from "./format.ts";
import { project } from "./geometry.ts";

function outOfRange(index: number, length: number): never {
  throw new RangeError(`road network: no entry ${index} of ${length}`);
}

/**
 * Entry `index` of an array, for graph code that indexes by ids it built itself: an index outside the
 * array is a bug in that code, so it throws rather than yield undefined.
 */
export function at<T>(values: ArrayLike<T>, index: number): T {
  const value = values[index];
  if (value === undefined) outOfRange(index, values.length);
  return value;
}

// The same check once per typed-array kind, for the search loops: one accessor for every kind of array sees
// them all at its indexed read and goes slow (npm run fidelity: median query 0.06 -> 0.10 ms, slowest lane
// 1.0 -> 2.2 ms).

/** Entry `index` of a Float64Array (see `at`). */
export function float64At(values: Float64Array, index: number): number {
  const value = values[index];
  if (value === undefined) outOfRange(index, values.length);
  return value;
}

/** Entry `index` of a Uint32Array (see `at`). */
export function uint32At(values: Uint32Array, index: number): number {
  const value = values[index];
  if (value === undefined) outOfRange(index, values.length);
  return value;
}

/** What a network's shape segments are built from: per edge, its junctions, its stated miles and its drawn shape. */
export interface EdgeShapes {
  count: number;
  start(edge: number): Point;
  end(edge: number): Point;
  miles(edge: number): number;
  /** The shape points strictly between the edge's two junctions: [lon, lat] pairs, flattened, x COORDINATE_SCALE. */
  shape(edge: number): readonly number[];
}

/**
 * Every edge's shape split into straight segments, each with the road miles along its edge where it
 * starts and ends (scaled so an edge's segments add up to its stated length), and a spatial index
 * of them for snapping. Held column by column in typed arrays rather than as an object per segment
 * and per point: the embedded network has about 34,000 segments, and as objects they were about
 * 150,000 of the server's long-lived objects, every one visited by each full garbage collection
 * (docs/performance.md, "A smaller heap").
 */
export class ShapeSegments {
  readonly edge: Uint32Array;
  readonly aLon: Float64Array;
  readonly aLat: Float64Array;
  readonly bLon: Float64Array;
  readonly bLat: Float64Array;
  /** Road miles along the edge at the segment's start and end. */
  readonly from: Float64Array;
  readonly to: Float64Array;
  /** Edge e's segments are first[e] .. first[e + 1] - 1, in drawn order. */
  readonly first: Uint32Array;
  /** Bounding boxes of the segments in projected miles (geometry.ts `project`). */
  readonly index: Flatbush;

  constructor(edges: EdgeShapes) {
    let count = 0;
    for (let e = 0; e < edges.count; e++) count += edges.shape(e).length / 2 + 1;
    this.edge = new Uint32Array(count);
    this.aLon = new Float64Array(count);
    this.aLat = new Float64Array(count);
    this.bLon = new Float64Array(count);
    this.bLat = new Float64Array(count);
    this.from = new Float64Array(count);
    this.to = new Float64Array(count);
    this.first = new Uint32Array(edges.count + 1);
    this.index = new Flatbush(count);
    let next = 0;
    for (let e = 0; e < edges.count; e++) {
      this.first[e] = next;
      next = this.addEdge(e, edges, next);
    }
    this.first[edges.count] = next;
    this.index.finish();
  }

  /** The point `along` road miles from its edge's start, on segment k, in degrees (clamped to the segment). */
  pointAlong(k: number, along: number): Point {
    const from = float64At(this.from, k);
    const to = float64At(this.to, k);
    const t = to > from ? Math.min(1, Math.max(0, (along - from) / (to - from))) : 0;
    const aLat = float64At(this.aLat, k);
    const aLon = float64At(this.aLon, k);
    return { lat: aLat + t * (float64At(this.bLat, k) - aLat), lon: aLon + t * (float64At(this.bLon, k) - aLon) };
  }

  /** Appends edge e's segments from slot `next`; returns the slot after its last. */
  private addEdge(e: number, edges: EdgeShapes, next: number): number {
    const shape = edges.shape(e);
    const start = edges.start(e);
    const end = edges.end(e);
    const corners: Point[] = [start];
    for (let k = 0; k < shape.length; k += 2) {
      corners.push({ lon: at(shape, k) / COORDINATE_SCALE, lat: at(shape, k + 1) / COORDINATE_SCALE });
    }
    corners.push(end);
    const points = corners.map(({ lon, lat }) => ({ lon, lat, ...project(lon, lat) }));
    const pieces: { a: (typeof points)[number]; b: (typeof points)[number]; drawn: number }[] = [];
    let previous: (typeof points)[number] | undefined;
    for (const b of points) {
      if (previous) pieces.push({ a: previous, b, drawn: Math.hypot(b.x - previous.x, b.y - previous.y) });
      previous = b;
    }
    const total = pieces.reduce((sum, piece) => sum + piece.drawn, 0);
    const scale = total > 0 ? edges.miles(e) / total : 0;
    let along = 0;
    for (const { a, b, drawn } of pieces) {
      this.edge[next] = e;
      this.aLon[next] = a.lon;
      this.aLat[next] = a.lat;
      this.bLon[next] = b.lon;
      this.bLat[next] = b.lat;
      this.from[next] = along;
      this.to[next] = along + drawn * scale;
      along += drawn * scale;
      this.index.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
      next++;
    }
    return next;
  }
}
