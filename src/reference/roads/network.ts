import Flatbush from "flatbush";
import FlatQueue from "flatqueue";
import { greatCircleMiles, type Point } from "../distance.ts";
import { COORDINATE_SCALE, LENGTH_SCALE, type RoadNetworkFile } from "./format.ts";
import { closestOnSegment, project, type XY } from "./geometry.ts";

/** Where a place meets the network: a point on one edge, and the straight-line miles from the place to it. */
export interface Snap {
  edge: number;
  /** Road miles from the edge's first junction to the snapped point. */
  along: number;
  /** Straight-line miles from the place to the snapped point. */
  offsetMiles: number;
}

export interface RoadRoute {
  /** Road miles between the two snapped points. */
  networkMiles: number;
  origin: Snap;
  destination: Snap;
}

/** A shape segment of one edge: its two points and the road miles along the edge where it starts and ends. */
interface ShapeSegment {
  edge: number;
  a: XY;
  b: XY;
  from: number;
  to: number;
}

/** Candidates looked at when snapping: the nearest segment boxes, then the exact nearest among them. */
const SNAP_CANDIDATES = 12;
/** Landmarks for the A* lower bound: a handful spread to the network's edges make long routes explore a narrow band. */
const LANDMARK_COUNT = 8;
/**
 * Edge lengths are drawn miles scaled by at least 0.98 (network-build.ts), and a drawn path is never
 * shorter than the straight line, so 0.98 x the straight-line miles never overestimates what is left.
 */
const LOWER_BOUND_FACTOR = 0.98;

/** A routable road network loaded from Waybill's network file. */
export class RoadNetwork {
  readonly version: string;
  private readonly from: Uint32Array;
  private readonly to: Uint32Array;
  private readonly miles: Float64Array;
  /** Adjacency in compressed rows: for junction v, entries first[v]..first[v+1] of (neighbour, edge). */
  private readonly first: Uint32Array;
  private readonly neighbour: Uint32Array;
  private readonly viaEdge: Uint32Array;
  private readonly segments: ShapeSegment[] = [];
  private readonly segmentIndex: Flatbush;
  private readonly distance: Float64Array;
  /** Junctions already expanded in the current query. */
  private readonly expanded: Uint8Array;
  private readonly junctionLat: Float64Array;
  private readonly junctionLon: Float64Array;
  private readonly queue: FlatQueue<number>;
  /** Road miles from each landmark junction to every junction (ALT lower bounds). */
  private readonly landmarks: Float64Array[];

  constructor(file: RoadNetworkFile) {
    this.version = file.version;
    const junctions = file.nodes.length / 2;
    const edgeCount = file.shapes.length;
    this.from = new Uint32Array(edgeCount);
    this.to = new Uint32Array(edgeCount);
    this.miles = new Float64Array(edgeCount);
    const degree = new Uint32Array(junctions + 1);
    for (let e = 0; e < edgeCount; e++) {
      this.from[e] = file.edges[3 * e]!;
      this.to[e] = file.edges[3 * e + 1]!;
      this.miles[e] = file.edges[3 * e + 2]! / LENGTH_SCALE;
      degree[this.from[e]!]!++;
      degree[this.to[e]!]!++;
    }
    this.first = new Uint32Array(junctions + 1);
    for (let v = 0; v < junctions; v++) this.first[v + 1] = this.first[v]! + degree[v]!;
    const fill = this.first.slice(0, junctions);
    this.neighbour = new Uint32Array(2 * edgeCount);
    this.viaEdge = new Uint32Array(2 * edgeCount);
    for (let e = 0; e < edgeCount; e++) {
      for (const [v, w] of [
        [this.from[e]!, this.to[e]!],
        [this.to[e]!, this.from[e]!],
      ] as const) {
        const slot = fill[v]!++;
        this.neighbour[slot] = w;
        this.viaEdge[slot] = e;
      }
    }

    this.junctionLon = new Float64Array(junctions);
    this.junctionLat = new Float64Array(junctions);
    for (let v = 0; v < junctions; v++) {
      this.junctionLon[v] = file.nodes[2 * v]! / COORDINATE_SCALE;
      this.junctionLat[v] = file.nodes[2 * v + 1]! / COORDINATE_SCALE;
    }
    const junction = (v: number): XY => project(file.nodes[2 * v]! / COORDINATE_SCALE, file.nodes[2 * v + 1]! / COORDINATE_SCALE);
    for (let e = 0; e < edgeCount; e++) this.addShape(e, junction(this.from[e]!), file.shapes[e]!, junction(this.to[e]!));
    this.segmentIndex = new Flatbush(this.segments.length);
    for (const { a, b } of this.segments) this.segmentIndex.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
    this.segmentIndex.finish();
    this.distance = new Float64Array(junctions);
    this.expanded = new Uint8Array(junctions);
    this.queue = new FlatQueue<number>();
    this.landmarks = this.chooseLandmarks(LANDMARK_COUNT);
  }

  /** Splits an edge's shape into segments whose along-edge miles add up to the edge's stated length. */
  private addShape(edge: number, start: XY, shape: number[], end: XY): void {
    const points = [start];
    for (let k = 0; k < shape.length; k += 2) points.push(project(shape[k]! / COORDINATE_SCALE, shape[k + 1]! / COORDINATE_SCALE));
    points.push(end);
    const drawn: number[] = [];
    for (let k = 1; k < points.length; k++) drawn.push(Math.hypot(points[k]!.x - points[k - 1]!.x, points[k]!.y - points[k - 1]!.y));
    const total = drawn.reduce((sum, d) => sum + d, 0);
    const scale = total > 0 ? this.miles[edge]! / total : 0;
    let along = 0;
    drawn.forEach((d, k) => {
      this.segments.push({ edge, a: points[k]!, b: points[k + 1]!, from: along, to: along + d * scale });
      along += d * scale;
    });
  }

  /** The nearest point of the network to a place. */
  snap(place: Point): Snap {
    const p = project(place.lon, place.lat);
    let best: Snap | undefined;
    for (const i of this.segmentIndex.neighbors(p.x, p.y, SNAP_CANDIDATES)) {
      const s = this.segments[i]!;
      const hit = closestOnSegment(p, s.a, s.b);
      if (!best || hit.distance < best.offsetMiles) best = { edge: s.edge, along: s.from + hit.t * (s.to - s.from), offsetMiles: hit.distance };
    }
    return best!;
  }

  /** Road miles from one junction to all others (plain Dijkstra). */
  private allDistancesFrom(source: number): Float64Array {
    const distance = new Float64Array(this.distance.length).fill(Number.POSITIVE_INFINITY);
    const queue = new FlatQueue<number>();
    distance[source] = 0;
    queue.push(source, 0);
    while (queue.length > 0) {
      const settled = queue.peekValue()!;
      const v = queue.pop()!;
      if (settled > distance[v]!) continue;
      for (let slot = this.first[v]!; slot < this.first[v + 1]!; slot++) {
        const w = this.neighbour[slot]!;
        const miles = settled + this.miles[this.viaEdge[slot]!]!;
        if (miles < distance[w]!) {
          distance[w] = miles;
          queue.push(w, miles);
        }
      }
    }
    return distance;
  }

  /** Farthest-first: each landmark is the junction farthest by road from those already chosen. */
  private chooseLandmarks(count: number): Float64Array[] {
    const chosen: Float64Array[] = [];
    if (this.distance.length === 0) return chosen;
    let next = 0;
    for (let k = 0; k < count; k++) {
      const fromNext = this.allDistancesFrom(next);
      if (k > 0) chosen.push(fromNext);
      const nearestChosen = (v: number) => Math.min(...(chosen.length ? chosen : [fromNext]).map((d) => d[v]!));
      let best = -1;
      for (let v = 0; v < fromNext.length; v++) {
        const far = nearestChosen(v);
        if (Number.isFinite(far) && far > best) {
          best = far;
          next = v;
        }
      }
    }
    chosen.push(this.allDistancesFrom(next));
    return chosen;
  }

  /** A lower bound on road miles from junction v to the nearer of two target junctions (triangle inequality over landmarks). */
  private landmarkBound(v: number, targetA: number, targetB: number): number {
    let boundA = 0;
    let boundB = 0;
    for (const d of this.landmarks) {
      const dv = d[v]!;
      boundA = Math.max(boundA, Math.abs(d[targetA]! - dv));
      boundB = Math.max(boundB, Math.abs(d[targetB]! - dv));
    }
    return Math.min(boundA, boundB);
  }

  /**
   * Shortest road miles between two snapped points: A* over the junctions (typed arrays, a binary heap), guided by
   * the larger of two lower bounds: landmark distances (ALT) and the straight-line miles, which no road path can beat.
   */
  routeMiles(origin: Snap, destination: Snap, toward: Point): number {
    let best = Number.POSITIVE_INFINITY;
    if (origin.edge === destination.edge) best = Math.abs(origin.along - destination.along);

    const distance = this.distance;
    distance.fill(Number.POSITIVE_INFINITY);
    const expanded = this.expanded;
    expanded.fill(0);
    const queue = this.queue;
    queue.clear();
    const targetFrom = this.from[destination.edge]!;
    const targetTo = this.to[destination.edge]!;
    const remaining = (v: number) =>
      Math.max(
        this.landmarkBound(v, targetFrom, targetTo),
        Math.max(0, greatCircleMiles({ lat: this.junctionLat[v]!, lon: this.junctionLon[v]! }, toward) - destination.offsetMiles) * LOWER_BOUND_FACTOR,
      );
    const reach = (v: number, miles: number) => {
      if (miles < distance[v]!) {
        distance[v] = miles;
        queue.push(v, miles + remaining(v));
      }
    };
    reach(this.from[origin.edge]!, origin.along);
    reach(this.to[origin.edge]!, this.miles[origin.edge]! - origin.along);
    const toTarget = (v: number): number =>
      Math.min(
        v === targetFrom ? destination.along : Number.POSITIVE_INFINITY,
        v === targetTo ? this.miles[destination.edge]! - destination.along : Number.POSITIVE_INFINITY,
      );

    while (queue.length > 0) {
      if (queue.peekValue()! >= best) break;
      const v = queue.pop()!;
      if (expanded[v]) continue;
      expanded[v] = 1;
      const settled = distance[v]!;
      best = Math.min(best, settled + toTarget(v));
      for (let slot = this.first[v]!; slot < this.first[v + 1]!; slot++) {
        reach(this.neighbour[slot]!, settled + this.miles[this.viaEdge[slot]!]!);
      }
    }
    return best;
  }

  /** Snaps both places and routes between them. */
  route(origin: Point, destination: Point): RoadRoute {
    const from = this.snap(origin);
    const to = this.snap(destination);
    return { networkMiles: this.routeMiles(from, to, destination), origin: from, destination: to };
  }
}
