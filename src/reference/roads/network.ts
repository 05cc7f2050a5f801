import Flatbush from "flatbush";
import FlatQueue from "flatqueue";
import { greatCircleMiles, type Point } from "../distance.ts";
import { COORDINATE_SCALE, LENGTH_SCALE, type RoadNetworkFile } from "./format.ts";
import { closestOnSegment, project, projectAround, type XY } from "./geometry.ts";

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
  /** The same two points in degrees, for measuring offsets in a frame centred on the place. */
  aDegrees: Point;
  bDegrees: Point;
  from: number;
  to: number;
}

/** Candidates looked at when snapping: the nearest segment boxes, then the exact nearest among them. */
const SNAP_CANDIDATES = 12;
/** Two joins closer than this are one point (the junction where two edges meet). */
const SAME_POINT_MILES = 0.05;
/** Two joins on one edge closer than this along it are the same stretch of road. */
const SAME_STRETCH_MILES = 3;
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
  /** Which origin join the current query's best path to each junction started from. */
  private readonly startedFrom: Uint32Array;
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
    const junction = (v: number): Point => ({ lon: file.nodes[2 * v]! / COORDINATE_SCALE, lat: file.nodes[2 * v + 1]! / COORDINATE_SCALE });
    for (let e = 0; e < edgeCount; e++) this.addShape(e, junction(this.from[e]!), file.shapes[e]!, junction(this.to[e]!));
    this.segmentIndex = new Flatbush(this.segments.length);
    for (const { a, b } of this.segments) this.segmentIndex.add(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y));
    this.segmentIndex.finish();
    this.distance = new Float64Array(junctions);
    this.expanded = new Uint8Array(junctions);
    this.startedFrom = new Uint32Array(junctions);
    this.queue = new FlatQueue<number>();
    this.landmarks = this.chooseLandmarks(LANDMARK_COUNT);
  }

  /** Splits an edge's shape into segments whose along-edge miles add up to the edge's stated length. */
  private addShape(edge: number, start: Point, shape: number[], end: Point): void {
    const degrees = [start];
    for (let k = 0; k < shape.length; k += 2) degrees.push({ lon: shape[k]! / COORDINATE_SCALE, lat: shape[k + 1]! / COORDINATE_SCALE });
    degrees.push(end);
    const points = degrees.map((d) => project(d.lon, d.lat));
    const drawn: number[] = [];
    for (let k = 1; k < points.length; k++) drawn.push(Math.hypot(points[k]!.x - points[k - 1]!.x, points[k]!.y - points[k - 1]!.y));
    const total = drawn.reduce((sum, d) => sum + d, 0);
    const scale = total > 0 ? this.miles[edge]! / total : 0;
    let along = 0;
    drawn.forEach((d, k) => {
      this.segments.push({ edge, a: points[k]!, b: points[k + 1]!, aDegrees: degrees[k]!, bDegrees: degrees[k + 1]!, from: along, to: along + d * scale });
      along += d * scale;
    });
  }

  /** The nearest point of the network to a place. */
  snap(place: Point): Snap {
    return this.snapCandidates(place, 1)[0]!;
  }

  /**
   * Where a place may join the network: up to `count` points, nearest first, each the nearest point of a shape
   * segment, leaving out one within a few road miles of a point already chosen on the same edge (the next segment
   * of the same stretch) or at the same spot (the junction two edges share). A long edge that passes the place
   * twice, or two roads near it, give separate joins.
   */
  snapCandidates(place: Point, count: number): Snap[] {
    const p = project(place.lon, place.lat);
    // The index finds nearby segments; their offsets are measured in a frame centred on the place.
    const local = projectAround(place);
    const centre = { x: 0, y: 0 };
    const hits = this.segmentIndex.neighbors(p.x, p.y, SNAP_CANDIDATES * count).map((i) => {
      const s = this.segments[i]!;
      const a = local(s.aDegrees.lon, s.aDegrees.lat);
      const b = local(s.bDegrees.lon, s.bDegrees.lat);
      const hit = closestOnSegment(centre, a, b);
      return {
        snap: { edge: s.edge, along: s.from + hit.t * (s.to - s.from), offsetMiles: hit.distance },
        x: a.x + hit.t * (b.x - a.x),
        y: a.y + hit.t * (b.y - a.y),
      };
    });
    const chosen: typeof hits = [];
    for (const hit of hits.sort((a, b) => a.snap.offsetMiles - b.snap.offsetMiles)) {
      if (chosen.length === count) break;
      const duplicate = chosen.some(
        (c) => (c.snap.edge === hit.snap.edge && Math.abs(c.snap.along - hit.snap.along) < SAME_STRETCH_MILES) || Math.hypot(c.x - hit.x, c.y - hit.y) < SAME_POINT_MILES,
      );
      if (!duplicate) chosen.push(hit);
    }
    return chosen.map((c) => c.snap);
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

  /** A lower bound on road miles from junction v to the nearest of the target junctions (triangle inequality over landmarks). */
  private landmarkBound(v: number, targets: readonly number[]): number {
    let nearest = Number.POSITIVE_INFINITY;
    for (const t of targets) {
      let bound = 0;
      for (const d of this.landmarks) bound = Math.max(bound, Math.abs(d[t]! - d[v]!));
      nearest = Math.min(nearest, bound);
    }
    return nearest;
  }

  /**
   * The cheapest way between two places that may each join the network at several points: connector legs cost
   * `connectorFactor` x their straight miles, network legs their road miles. One A* from all origin joins at once
   * (typed arrays, a binary heap) to whichever destination join is cheapest, guided by the larger of two lower
   * bounds: landmark distances (ALT) and 0.98 x the straight line to the destination place, which neither the
   * road nor road plus connector can beat (connectorFactor >= 1).
   */
  cheapestJoin(origins: readonly Snap[], destinations: readonly Snap[], toward: Point, connectorFactor: number): RoadRoute {
    const connector = (snap: Snap) => snap.offsetMiles * connectorFactor;
    let best = Number.POSITIVE_INFINITY;
    let bestOrigin = 0;
    let bestDestination = 0;
    origins.forEach((o, i) => {
      destinations.forEach((d, j) => {
        const same = o.edge === d.edge ? Math.abs(o.along - d.along) + connector(o) + connector(d) : Number.POSITIVE_INFINITY;
        if (same < best) [best, bestOrigin, bestDestination] = [same, i, j];
      });
    });

    // Each destination join is reached from either end of its edge.
    const exits = new Map<number, { destination: number; miles: number }[]>();
    destinations.forEach((d, j) => {
      for (const [v, along] of [
        [this.from[d.edge]!, d.along],
        [this.to[d.edge]!, this.miles[d.edge]! - d.along],
      ] as const) {
        exits.set(v, [...(exits.get(v) ?? []), { destination: j, miles: along + connector(d) }]);
      }
    });
    const targets = [...exits.keys()];

    const distance = this.distance;
    distance.fill(Number.POSITIVE_INFINITY);
    const expanded = this.expanded;
    expanded.fill(0);
    const startedFrom = this.startedFrom;
    const queue = this.queue;
    queue.clear();
    const remaining = (v: number) =>
      Math.max(this.landmarkBound(v, targets), greatCircleMiles({ lat: this.junctionLat[v]!, lon: this.junctionLon[v]! }, toward) * LOWER_BOUND_FACTOR);
    const reach = (v: number, miles: number, origin: number) => {
      if (miles < distance[v]!) {
        distance[v] = miles;
        startedFrom[v] = origin;
        queue.push(v, miles + remaining(v));
      }
    };
    origins.forEach((o, i) => {
      reach(this.from[o.edge]!, o.along + connector(o), i);
      reach(this.to[o.edge]!, this.miles[o.edge]! - o.along + connector(o), i);
    });

    while (queue.length > 0) {
      if (queue.peekValue()! >= best) break;
      const v = queue.pop()!;
      if (expanded[v]) continue;
      expanded[v] = 1;
      const settled = distance[v]!;
      for (const exit of exits.get(v) ?? []) {
        if (settled + exit.miles < best) [best, bestOrigin, bestDestination] = [settled + exit.miles, startedFrom[v]!, exit.destination];
      }
      for (let slot = this.first[v]!; slot < this.first[v + 1]!; slot++) {
        reach(this.neighbour[slot]!, settled + this.miles[this.viaEdge[slot]!]!, startedFrom[v]!);
      }
    }
    const origin = origins[bestOrigin]!;
    const destination = destinations[bestDestination]!;
    return { networkMiles: best - connector(origin) - connector(destination), origin, destination };
  }

  /** Road miles between the nearest network points of two places (no connector legs counted). */
  route(origin: Point, destination: Point): RoadRoute {
    return this.cheapestJoin([this.snap(origin)], [this.snap(destination)], destination, 1);
  }
}
