import Flatbush from "flatbush";
import type { Point } from "../geo/distance.ts";
import { COORDINATE_SCALE } from "./format.ts";
import { project } from "./geometry.ts";

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
    const from = this.from[k]!;
    const to = this.to[k]!;
    const t = to > from ? Math.min(1, Math.max(0, (along - from) / (to - from))) : 0;
    return {
      lat: this.aLat[k]! + t * (this.bLat[k]! - this.aLat[k]!),
      lon: this.aLon[k]! + t * (this.bLon[k]! - this.aLon[k]!),
    };
  }

  /** Appends edge e's segments from slot `next`; returns the slot after its last. */
  private addEdge(e: number, edges: EdgeShapes, next: number): number {
    const shape = edges.shape(e);
    const start = edges.start(e);
    const end = edges.end(e);
    const lons = [start.lon];
    const lats = [start.lat];
    for (let k = 0; k < shape.length; k += 2) {
      lons.push(shape[k]! / COORDINATE_SCALE);
      lats.push(shape[k + 1]! / COORDINATE_SCALE);
    }
    lons.push(end.lon);
    lats.push(end.lat);
    const points = lons.map((lon, k) => project(lon, lats[k]!));
    const drawn: number[] = [];
    for (let k = 1; k < points.length; k++)
      drawn.push(Math.hypot(points[k]!.x - points[k - 1]!.x, points[k]!.y - points[k - 1]!.y));
    const total = drawn.reduce((sum, d) => sum + d, 0);
    const scale = total > 0 ? edges.miles(e) / total : 0;
    let along = 0;
    for (let k = 0; k < drawn.length; k++, next++) {
      const a = points[k]!;
      const b = points[k + 1]!;
      this.edge[next] = e;
      this.aLon[next] = lons[k]!;
      this.aLat[next] = lats[k]!;
      this.bLon[next] = lons[k + 1]!;
      this.bLat[next] = lats[k + 1]!;
      this.from[next] = along;
      this.to[next] = along + drawn[k]! * scale;
      along += drawn[k]! * scale;
      this.index.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
    }
    return next;
  }
}
