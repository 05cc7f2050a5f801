import FlatQueue from "flatqueue";
import { greatCircleMiles, type Point } from "../geo/distance.ts";
import { COORDINATE_SCALE, LENGTH_SCALE, type RoadNetworkFile } from "./format.ts";
import { closestOnSegment, project, projectAround } from "./geometry.ts";
import { at, float64At, ShapeSegments, uint32At } from "./shape-segments.ts";

/** Where a place meets the network: a point on one edge, and the straight-line miles from the place to it. */
export interface Snap {
  edge: number;
  /** Road miles from the edge's first junction to the snapped point. */
  along: number;
  /** Straight-line miles from the place to the snapped point. */
  offsetMiles: number;
}

/** Joins looked for ahead of a place only: within `withinMiles` and `coneDegrees` either side of the line to `point`. */
export interface JoinToward {
  point: Point;
  withinMiles: number;
  coneDegrees: number;
}

/** A point along a route and the miles driven to reach it (local leg from the origin included). */
export interface RoutePoint extends Point {
  miles: number;
}

export interface RoadRoute {
  /** Road miles between the two snapped points. */
  networkMiles: number;
  origin: Snap;
  destination: Snap;
  /** The route from join to join: the joins, and every junction and shape point between, in driving order (cheapestJoin with `withPath`). */
  path?: RoutePoint[];
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
 * shorter than the straight line, so 0.98 x the straight-line miles never overestimates what is left
 * (nor the search cost, which is never below the miles: see `cost`).
 */
const LOWER_BOUND_FACTOR = 0.98;

/** A routable road network loaded from Waybill's network file. */
export class RoadNetwork {
  readonly version: string;
  private readonly from: Uint32Array;
  private readonly to: Uint32Array;
  private readonly miles: Float64Array;
  /**
   * What the search minimises per edge: travel time, counted in miles at the network's top speed (miles x top
   * speed / the edge's speed). Never below the miles, so straight-line bounds stay admissible; on a network of
   * one speed (the embedded Interstates) it is the miles themselves and routes are the shortest.
   */
  private readonly cost: Float64Array;
  /** Adjacency in compressed rows: for junction v, entries first[v]..first[v+1] of (neighbour, edge). */
  private readonly first: Uint32Array;
  private readonly neighbour: Uint32Array;
  private readonly viaEdge: Uint32Array;
  private readonly segments: ShapeSegments;
  /** The current query's best cost to each junction. */
  private readonly distance: Float64Array;
  /** The road miles of the current query's best path to each junction. */
  private readonly milesTo: Float64Array;
  /** Junctions already expanded in the current query. */
  private readonly expanded: Uint8Array;
  /** Which origin join the current query's best path to each junction started from. */
  private readonly startedFrom: Uint32Array;
  /** The edge the current query's best path reached each junction by (-1: an origin join's edge). */
  private readonly arrivedBy: Int32Array;
  private readonly junctionLat: Float64Array;
  private readonly junctionLon: Float64Array;
  private readonly queue: FlatQueue<number>;
  /** Cost from each landmark junction to every junction (ALT lower bounds). */
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
      const from = at(file.edges, 3 * e);
      const to = at(file.edges, 3 * e + 1);
      this.from[e] = from;
      this.to[e] = to;
      this.miles[e] = at(file.edges, 3 * e + 2) / LENGTH_SCALE;
      degree[from] = uint32At(degree, from) + 1;
      degree[to] = uint32At(degree, to) + 1;
    }
    const speeds = file.speeds;
    if (speeds) {
      const top = speeds.reduce((fastest, speed) => Math.max(fastest, speed), 0);
      this.cost = this.miles.map((miles, e) => (miles * top) / (speeds[e] ?? top));
    } else this.cost = this.miles;
    this.first = new Uint32Array(junctions + 1);
    for (let v = 0; v < junctions; v++) this.first[v + 1] = uint32At(this.first, v) + uint32At(degree, v);
    const fill = this.first.slice(0, junctions);
    this.neighbour = new Uint32Array(2 * edgeCount);
    this.viaEdge = new Uint32Array(2 * edgeCount);
    for (let e = 0; e < edgeCount; e++) {
      for (const [v, w] of [
        [uint32At(this.from, e), uint32At(this.to, e)],
        [uint32At(this.to, e), uint32At(this.from, e)],
      ] as const) {
        const slot = uint32At(fill, v);
        fill[v] = slot + 1;
        this.neighbour[slot] = w;
        this.viaEdge[slot] = e;
      }
    }

    this.junctionLon = new Float64Array(junctions);
    this.junctionLat = new Float64Array(junctions);
    for (let v = 0; v < junctions; v++) {
      this.junctionLon[v] = at(file.nodes, 2 * v) / COORDINATE_SCALE;
      this.junctionLat[v] = at(file.nodes, 2 * v + 1) / COORDINATE_SCALE;
    }
    const junction = (v: number): Point => ({
      lon: at(file.nodes, 2 * v) / COORDINATE_SCALE,
      lat: at(file.nodes, 2 * v + 1) / COORDINATE_SCALE,
    });
    this.segments = new ShapeSegments({
      count: edgeCount,
      start: (e) => junction(uint32At(this.from, e)),
      end: (e) => junction(uint32At(this.to, e)),
      miles: (e) => float64At(this.miles, e),
      shape: (e) => {
        const shape = file.shapes[e];
        if (!shape) throw new RangeError(`road network ${file.version}: no shape for edge ${e} of ${edgeCount}`);
        return shape;
      },
    });
    this.distance = new Float64Array(junctions);
    this.milesTo = new Float64Array(junctions);
    this.expanded = new Uint8Array(junctions);
    this.startedFrom = new Uint32Array(junctions);
    this.arrivedBy = new Int32Array(junctions);
    this.queue = new FlatQueue<number>();
    this.landmarks = this.chooseLandmarks(LANDMARK_COUNT);
  }

  /** The nearest point of the network to a place. */
  snap(place: Point): Snap {
    const [nearest] = this.snapCandidates(place, 1);
    if (!nearest) throw new RangeError(`road network ${this.version} has no roads to snap to`);
    return nearest;
  }

  /**
   * Where a place may join the network: up to `count` points, nearest first, each the nearest point of a shape
   * segment, leaving out one within a few road miles of a point already chosen on the same edge (the next segment
   * of the same stretch) or at the same spot (the junction two edges share). A long edge that passes the place
   * twice, or two roads near it, give separate joins. With `toward`, only points ahead of the place are looked at.
   */
  snapCandidates(place: Point, count: number, toward?: JoinToward): Snap[] {
    const p = project(place.lon, place.lat);
    // The index finds nearby segments; their offsets are measured in a frame centred on the place.
    const local = projectAround(place);
    const centre = { x: 0, y: 0 };
    const hitOn = (i: number) => {
      const s = this.segments;
      const a = local(float64At(s.aLon, i), float64At(s.aLat, i));
      const b = local(float64At(s.bLon, i), float64At(s.bLat, i));
      const hit = closestOnSegment(centre, a, b);
      return {
        snap: {
          edge: uint32At(s.edge, i),
          along: float64At(s.from, i) + hit.t * (float64At(s.to, i) - float64At(s.from, i)),
          offsetMiles: hit.distance,
        },
        x: a.x + hit.t * (b.x - a.x),
        y: a.y + hit.t * (b.y - a.y),
      };
    };
    let hits: ReturnType<typeof hitOn>[];
    if (toward) {
      // Only segments whose nearest point lies ahead, within the cone and the reach; the index stops once it has enough.
      const ahead = local(toward.point.lon, toward.point.lat);
      const minCosine = Math.cos((toward.coneDegrees * Math.PI) / 180);
      const seen = new Map<number, ReturnType<typeof hitOn>>();
      const isAhead = (i: number) => {
        const hit = hitOn(i);
        seen.set(i, hit);
        const cosine =
          (hit.x * ahead.x + hit.y * ahead.y) / (Math.hypot(hit.x, hit.y) * Math.hypot(ahead.x, ahead.y) || 1);
        return hit.snap.offsetMiles <= toward.withinMiles && cosine >= minCosine;
      };
      hits = this.segments.index.neighbors(p.x, p.y, SNAP_CANDIDATES * count, toward.withinMiles, isAhead).map((i) => {
        const hit = seen.get(i);
        if (!hit) throw new RangeError(`road network ${this.version}: segment ${i} was never looked at`);
        return hit;
      });
    } else {
      hits = this.segments.index.neighbors(p.x, p.y, SNAP_CANDIDATES * count).map(hitOn);
    }
    const chosen: typeof hits = [];
    for (const hit of hits.sort((a, b) => a.snap.offsetMiles - b.snap.offsetMiles)) {
      if (chosen.length === count) break;
      const duplicate = chosen.some(
        (c) =>
          (c.snap.edge === hit.snap.edge && Math.abs(c.snap.along - hit.snap.along) < SAME_STRETCH_MILES) ||
          Math.hypot(c.x - hit.x, c.y - hit.y) < SAME_POINT_MILES,
      );
      if (!duplicate) chosen.push(hit);
    }
    return chosen.map((c) => c.snap);
  }

  /** Cost from one junction to all others (plain Dijkstra). */
  private allDistancesFrom(source: number): Float64Array {
    const distance = new Float64Array(this.distance.length).fill(Number.POSITIVE_INFINITY);
    const queue = new FlatQueue<number>();
    distance[source] = 0;
    queue.push(source, 0);
    while (queue.length > 0) {
      const settled = queue.peekValue();
      const v = queue.pop();
      if (settled === undefined || v === undefined) break;
      if (settled > float64At(distance, v)) continue;
      for (let slot = uint32At(this.first, v); slot < uint32At(this.first, v + 1); slot++) {
        const w = uint32At(this.neighbour, slot);
        const cost = settled + float64At(this.cost, uint32At(this.viaEdge, slot));
        if (cost < float64At(distance, w)) {
          distance[w] = cost;
          queue.push(w, cost);
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
      const nearestChosen = (v: number) =>
        Math.min(...(chosen.length ? chosen : [fromNext]).map((d) => float64At(d, v)));
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

  /** A lower bound on the cost from junction v to the nearest of the target junctions (triangle inequality over landmarks). */
  private landmarkBound(v: number, targets: readonly number[]): number {
    let nearest = Number.POSITIVE_INFINITY;
    for (const t of targets) {
      let bound = 0;
      for (const d of this.landmarks) bound = Math.max(bound, Math.abs(float64At(d, t) - float64At(d, v)));
      nearest = Math.min(nearest, bound);
    }
    return nearest;
  }

  /**
   * The quickest way between two places that may each join the network at several points: connector legs cost
   * `connectorFactor` x their straight miles, network legs their travel time as miles at the top speed (`cost`).
   * One A* from all origin joins at once (typed arrays, a binary heap) to whichever destination join is cheapest,
   * guided by the larger of two lower bounds: landmark costs (ALT) and 0.98 x the straight line to the destination
   * place, which neither the road nor road plus connector can beat (connectorFactor >= 1). The route's miles are
   * the chosen path's length.
   */
  cheapestJoin(
    origins: readonly Snap[],
    destinations: readonly Snap[],
    toward: Point,
    connectorFactor: number,
    withPath = false,
  ): RoadRoute {
    const connector = (snap: Snap) => snap.offsetMiles * connectorFactor;
    /** The cost of driving `miles` along an edge. */
    const costAlong = (edge: number, miles: number) =>
      (miles * float64At(this.cost, edge)) / float64At(this.miles, edge);
    let best = Number.POSITIVE_INFINITY;
    /** Road miles of the best route between its two joins (infinite while none is found). */
    let bestMiles = Number.POSITIVE_INFINITY;
    let bestOrigin = 0;
    let bestDestination = 0;
    /** The junction the best route leaves the network's graph at (-1: both joins on one edge). */
    let bestExit = -1;
    origins.forEach((o, i) => {
      destinations.forEach((d, j) => {
        if (o.edge !== d.edge) return;
        const miles = Math.abs(o.along - d.along);
        const same = costAlong(o.edge, miles) + connector(o) + connector(d);
        if (same < best) [best, bestMiles, bestOrigin, bestDestination] = [same, miles, i, j];
      });
    });

    // Each destination join is reached from either end of its edge.
    const exits = new Map<number, { destination: number; miles: number; cost: number }[]>();
    destinations.forEach((d, j) => {
      for (const [v, along] of [
        [uint32At(this.from, d.edge), d.along],
        [uint32At(this.to, d.edge), float64At(this.miles, d.edge) - d.along],
      ] as const) {
        const exit = { destination: j, miles: along, cost: costAlong(d.edge, along) + connector(d) };
        exits.set(v, [...(exits.get(v) ?? []), exit]);
      }
    });
    const targets = [...exits.keys()];

    const distance = this.distance;
    distance.fill(Number.POSITIVE_INFINITY);
    const milesTo = this.milesTo;
    const expanded = this.expanded;
    expanded.fill(0);
    const startedFrom = this.startedFrom;
    const queue = this.queue;
    queue.clear();
    const remaining = (v: number) =>
      Math.max(
        this.landmarkBound(v, targets),
        greatCircleMiles({ lat: float64At(this.junctionLat, v), lon: float64At(this.junctionLon, v) }, toward) *
          LOWER_BOUND_FACTOR,
      );
    const arrivedBy = this.arrivedBy;
    const reach = (v: number, cost: number, miles: number, origin: number, edge: number) => {
      if (cost < float64At(distance, v)) {
        distance[v] = cost;
        milesTo[v] = miles;
        startedFrom[v] = origin;
        arrivedBy[v] = edge;
        queue.push(v, cost + remaining(v));
      }
    };
    origins.forEach((o, i) => {
      const back = float64At(this.miles, o.edge) - o.along;
      reach(uint32At(this.from, o.edge), costAlong(o.edge, o.along) + connector(o), o.along, i, -1);
      reach(uint32At(this.to, o.edge), costAlong(o.edge, back) + connector(o), back, i, -1);
    });

    while (queue.length > 0) {
      const bound = queue.peekValue();
      if (bound === undefined || bound >= best) break;
      const v = queue.pop();
      if (v === undefined) break;
      if (expanded[v]) continue;
      expanded[v] = 1;
      const settled = float64At(distance, v);
      const settledMiles = float64At(milesTo, v);
      for (const exit of exits.get(v) ?? []) {
        if (settled + exit.cost < best)
          [best, bestMiles, bestOrigin, bestDestination, bestExit] = [
            settled + exit.cost,
            settledMiles + exit.miles,
            uint32At(startedFrom, v),
            exit.destination,
            v,
          ];
      }
      for (let slot = uint32At(this.first, v); slot < uint32At(this.first, v + 1); slot++) {
        const edge = uint32At(this.viaEdge, slot);
        reach(
          uint32At(this.neighbour, slot),
          settled + float64At(this.cost, edge),
          settledMiles + float64At(this.miles, edge),
          uint32At(startedFrom, v),
          edge,
        );
      }
    }
    const origin = origins[bestOrigin];
    const destination = destinations[bestDestination];
    if (!origin || !destination)
      throw new RangeError("cheapestJoin needs at least one origin and one destination join");
    const route: RoadRoute = { networkMiles: bestMiles, origin, destination };
    if (withPath) {
      const start = connector(origin);
      const between = bestExit >= 0 ? this.pathTo(bestExit, start) : this.pathAlong(origin, destination, start);
      route.path = [
        { ...this.pointAt(origin), miles: start },
        ...between,
        { ...this.pointAt(destination), miles: start + bestMiles },
      ];
    }
    return route;
  }

  /** Where a join lies, in degrees. */
  private pointAt(snap: Snap): Point {
    const s = this.segments;
    const last = uint32At(s.first, snap.edge + 1) - 1;
    for (let k = uint32At(s.first, snap.edge); k <= last; k++) {
      if (snap.along <= float64At(s.to, k) || k === last) return s.pointAlong(k, snap.along);
    }
    return {
      lat: float64At(this.junctionLat, uint32At(this.from, snap.edge)),
      lon: float64At(this.junctionLon, uint32At(this.from, snap.edge)),
    };
  }

  /** The shape points between two joins on one edge, in driving order. */
  private pathAlong(origin: Snap, destination: Snap, startMiles: number): RoutePoint[] {
    const forward = destination.along >= origin.along;
    const path: RoutePoint[] = [];
    const s = this.segments;
    for (let k = uint32At(s.first, origin.edge); k < uint32At(s.first, origin.edge + 1); k++) {
      if (
        float64At(s.to, k) > Math.min(origin.along, destination.along) &&
        float64At(s.to, k) < Math.max(origin.along, destination.along)
      ) {
        path.push({
          lon: float64At(s.bLon, k),
          lat: float64At(s.bLat, k),
          miles: startMiles + Math.abs(float64At(s.to, k) - origin.along),
        });
      }
    }
    return forward ? path : path.reverse();
  }

  /**
   * The current query's best path from its origin join to junction v: every junction and shape point on the way,
   * with the miles driven to each counted from `startMiles` at the origin join.
   */
  private pathTo(v: number, startMiles: number): RoutePoint[] {
    const reversed: RoutePoint[] = [];
    for (let junction = v; ; ) {
      const miles = startMiles + float64At(this.milesTo, junction);
      reversed.push({ lat: float64At(this.junctionLat, junction), lon: float64At(this.junctionLon, junction), miles });
      const edge = at(this.arrivedBy, junction);
      if (edge < 0) break;
      const forward = this.to[edge] === junction;
      const previous = forward ? uint32At(this.from, edge) : uint32At(this.to, edge);
      const start = miles - float64At(this.miles, edge);
      // Shape points strictly between the edge's two junctions, last first.
      const s = this.segments;
      const first = uint32At(s.first, edge);
      const last = uint32At(s.first, edge + 1) - 1;
      for (let k = forward ? last : first; forward ? k > first : k < last; k += forward ? -1 : 1) {
        const miles = start + (forward ? float64At(s.from, k) : float64At(this.miles, edge) - float64At(s.to, k));
        reversed.push(
          forward
            ? { lon: float64At(s.aLon, k), lat: float64At(s.aLat, k), miles }
            : { lon: float64At(s.bLon, k), lat: float64At(s.bLat, k), miles },
        );
      }
      junction = previous;
    }
    return reversed.reverse();
  }

  /** Road miles between the nearest network points of two places (no connector legs counted). */
  route(origin: Point, destination: Point): RoadRoute {
    return this.cheapestJoin([this.snap(origin)], [this.snap(destination)], destination, 1);
  }
}
