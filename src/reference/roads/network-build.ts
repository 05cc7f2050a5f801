import Flatbush from "flatbush";
import FlatQueue from "flatqueue";
import { greatCircleMiles } from "../geo/distance.ts";
import {
  COORDINATE_SCALE,
  LENGTH_SCALE,
  ROAD_NETWORK_FORMAT,
  SPEED_SCALE,
  type RoadNetworkFile,
  type RoadNetworkStats,
} from "./format.ts";
import { closestOnSegment, project, segmentCrossing, type XY } from "./geometry.ts";
import { UNCLASSIFIED_SPEED_MPH } from "./road-class.ts";
import { at } from "./shape-segments.ts";

/** One drawn road: its points as [lon, lat] and, when the source states them, the real road's length and truck speed. */
export interface RoadLine {
  coordinates: [number, number][];
  lengthMiles?: number;
  /** A loaded truck's speed on the road (road-class.ts); a line without one runs at UNCLASSIFIED_SPEED_MPH. */
  speedMph?: number;
}

/** How the drawn lines become a routable graph; the defaults are the ones docs/rate-model.md explains. */
export const BUILD_RULES = {
  /** Vertices closer than this are one junction (50 m): carriageway joins and state-line breaks. */
  mergeMiles: 50 / 1609.344,
  /** A line that ends this close to another road joins it there (interchanges drawn short). */
  snapEndMiles: 2,
  /**
   * Two loose ends this close, leaving the same way, are the two carriageways of one divided highway ending
   * side by side: each joins the nearest *other* road, never its twin (I-55 at LaPlace, drawn short of I-10).
   */
  twinEndMiles: 0.5,
  /** A loose end never joins its own road within this many road miles of the end (or of its twin's end). */
  ownRoadMiles: 3,
  /** A separate piece of network this close to another is bridged (gaps in the drawing, e.g. I-95 at Trenton). */
  bridgeGapMiles: 15,
  /**
   * Two loose ends this close whose road distance is over `detourFactor` x the gap + 5 mi are a gap inside one
   * piece (a toll Interstate drawn in two parts, both joined elsewhere) and are bridged too.
   */
  detourFactor: 3,
  /**
   * The source's `length` is the real road's; the drawing is generalised and a little shorter. Each line's
   * drawn miles are scaled to its stated length, within these bounds so that a bad attribute cannot stretch a road.
   */
  lengthScaleBounds: [0.98, 1.1] as const,
};

/**
 * Moves whenever a build rule changes, so that a network built from the same file under other rules has another
 * version (receipts name the version that priced a lane). Revision 1 had no twin-carriageway rule; revision 2 kept
 * no road speeds.
 */
const BUILD_REVISION = 3;

class Points {
  readonly lon: number[] = [];
  readonly lat: number[] = [];
  readonly xy: XY[] = [];
  private readonly grid = new Map<string, number[]>();

  constructor(private readonly mergeMiles: number) {}

  private cell(p: XY): [number, number] {
    return [Math.floor(p.x / this.mergeMiles), Math.floor(p.y / this.mergeMiles)];
  }

  /** The id of an existing point within the merge distance, or of a new one. */
  add(lon: number, lat: number): number {
    const p = project(lon, lat);
    const [cx, cy] = this.cell(p);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const id of this.grid.get(`${cx + dx},${cy + dy}`) ?? []) {
          const q = at(this.xy, id);
          if (Math.hypot(q.x - p.x, q.y - p.y) <= this.mergeMiles) return id;
        }
      }
    }
    const id = this.lon.length;
    this.lon.push(lon);
    this.lat.push(lat);
    this.xy.push(p);
    const key = `${cx},${cy}`;
    const list = this.grid.get(key);
    if (list) list.push(id);
    else this.grid.set(key, [id]);
    return id;
  }

  miles(a: number, b: number): number {
    return greatCircleMiles(
      { lat: at(this.lat, a), lon: at(this.lon, a) },
      { lat: at(this.lat, b), lon: at(this.lon, b) },
    );
  }

  /** The point at parameter t along a-b. */
  between(a: number, b: number, t: number): number {
    return this.add(
      at(this.lon, a) + t * (at(this.lon, b) - at(this.lon, a)),
      at(this.lat, a) + t * (at(this.lat, b) - at(this.lat, a)),
    );
  }
}

interface Segment {
  a: number;
  b: number;
  scale: number;
  speedMph: number;
  /** Junctions found inside the segment, by parameter along it. */
  splits: { t: number; point: number }[];
}

/** A spatial index of straight pieces of road (segments or edges between two points), by bounding box. */
function segmentIndex(segments: readonly { a: number; b: number }[], points: Points): Flatbush {
  const index = new Flatbush(Math.max(1, segments.length));
  for (const { a, b } of segments) {
    const pa = at(points.xy, a);
    const pb = at(points.xy, b);
    index.add(Math.min(pa.x, pb.x), Math.min(pa.y, pb.y), Math.max(pa.x, pb.x), Math.max(pa.y, pb.y));
  }
  index.finish();
  return index;
}

/** Where two drawn roads cross, both get a junction: Interstates meet at interchanges. */
function splitCrossings(segments: Segment[], points: Points): number {
  const index = segmentIndex(segments, points);
  let crossings = 0;
  segments.forEach((s, i) => {
    const pa = at(points.xy, s.a);
    const pb = at(points.xy, s.b);
    for (const j of index.search(
      Math.min(pa.x, pb.x),
      Math.min(pa.y, pb.y),
      Math.max(pa.x, pb.x),
      Math.max(pa.y, pb.y),
    )) {
      if (j <= i) continue;
      const o = at(segments, j);
      if (o.a === s.a || o.a === s.b || o.b === s.a || o.b === s.b) continue;
      const hit = segmentCrossing(pa, pb, at(points.xy, o.a), at(points.xy, o.b));
      if (!hit) continue;
      const point = points.between(s.a, s.b, hit.t);
      s.splits.push({ t: hit.t, point });
      o.splits.push({ t: hit.u, point });
      crossings++;
    }
  });
  return crossings;
}

function neighbours(segments: Segment[], count: number): Set<number>[] {
  const sets = Array.from({ length: count }, () => new Set<number>());
  for (const s of segments) {
    at(sets, s.a).add(s.b);
    at(sets, s.b).add(s.a);
  }
  return sets;
}

/**
 * Where a road ends: one neighbour, or two that lie the same way (the two carriageways of a divided
 * highway ending together). A point between two neighbours on opposite sides is a road passing through.
 */
function isLooseEnd(v: number, neighbourIds: Iterable<number>, points: Points): boolean {
  const [one, two, ...more] = new Set(neighbourIds);
  if (one === undefined || more.length > 0) return false;
  if (two === undefined) return true;
  const p = at(points.xy, v);
  const toward = (w: number) => {
    const q = at(points.xy, w);
    return { x: q.x - p.x, y: q.y - p.y };
  };
  const a = toward(one);
  const b = toward(two);
  const cosine = (a.x * b.x + a.y * b.y) / (Math.hypot(a.x, a.y) * Math.hypot(b.x, b.y) || 1);
  return cosine > Math.cos(Math.PI / 4);
}

/** Drawn points within `limit` road miles of v along the drawn segments: v's own road near v. */
function ownRoadNear(adjacent: Set<number>[], points: Points, v: number, limit: number): Set<number> {
  const drawnFrom = (point: number) => [...at(adjacent, point)].map((to) => ({ to, miles: points.miles(point, to) }));
  return new Set(milesWithin(drawnFrom, v, limit).keys());
}

/** Unit vector from a loose end toward the road it ends (the mean of its neighbours' directions). */
function leavingDirection(v: number, neighbourIds: Set<number>, points: Points): XY {
  const p = at(points.xy, v);
  let x = 0;
  let y = 0;
  for (const w of neighbourIds) {
    const q = at(points.xy, w);
    const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
    x += (q.x - p.x) / length;
    y += (q.y - p.y) / length;
  }
  const length = Math.hypot(x, y) || 1;
  return { x: x / length, y: y / length };
}

/**
 * A line that stops short of another road is joined to the nearest point of that road. The end's own road
 * near it, and the twin carriageway ending beside it, do not count as another road.
 */
function snapDanglingEnds(segments: Segment[], points: Points, rules: typeof BUILD_RULES): number {
  const snapMiles = rules.snapEndMiles;
  const index = segmentIndex(segments, points);
  const adjacent = neighbours(segments, points.lon.length);
  const ends = adjacent.flatMap((set, v) => (isLooseEnd(v, set, points) ? [v] : []));
  const endIndex = new Flatbush(Math.max(1, ends.length));
  for (const v of ends) {
    const { x, y } = at(points.xy, v);
    endIndex.add(x, y);
  }
  endIndex.finish();
  const directions = ends.map((v) => leavingDirection(v, at(adjacent, v), points));
  const speedAt = roadSpeedAt(segments);
  const joins: Segment[] = [];
  for (const [i, v] of ends.entries()) {
    const p = at(points.xy, v);
    const own = at(directions, i);
    const twins = endIndex
      .neighbors(p.x, p.y, Infinity, rules.twinEndMiles, (k) => ends[k] !== v)
      .filter((k) => {
        const theirs = at(directions, k);
        return own.x * theirs.x + own.y * theirs.y > Math.cos(Math.PI / 4);
      })
      .map((k) => at(ends, k));
    const near = new Set<number>();
    for (const end of [v, ...twins])
      for (const point of ownRoadNear(adjacent, points, end, rules.ownRoadMiles)) near.add(point);
    let best: { j: number; t: number; distance: number } | undefined;
    for (const j of index.search(p.x - snapMiles, p.y - snapMiles, p.x + snapMiles, p.y + snapMiles)) {
      const s = at(segments, j);
      if (near.has(s.a) || near.has(s.b)) continue;
      const hit = closestOnSegment(p, at(points.xy, s.a), at(points.xy, s.b));
      if (hit.distance <= snapMiles && (!best || hit.distance < best.distance)) best = { j, ...hit };
    }
    if (!best) continue;
    const target = at(segments, best.j);
    const point = points.between(target.a, target.b, best.t);
    target.splits.push({ t: best.t, point });
    if (point !== v)
      joins.push({ a: v, b: point, scale: 1, speedMph: speedAt.get(v) ?? UNCLASSIFIED_SPEED_MPH, splits: [] });
  }
  segments.push(...joins);
  return joins.length;
}

interface Edge {
  a: number;
  b: number;
  miles: number;
  /** Hours a truck takes over the edge. */
  hours: number;
}

/** An edge's mean speed in mph (an edge of no measurable length at the unclassified speed). */
const speedOf = (e: Edge) => (e.hours > 0 ? e.miles / e.hours : UNCLASSIFIED_SPEED_MPH);

/** The fastest road speed meeting each point: what a join or bridge drawn from a loose end is driven at. */
function roadSpeedAt(segments: readonly { a: number; b: number; speedMph: number }[]): Map<number, number> {
  const speed = new Map<number, number>();
  for (const s of segments) for (const v of [s.a, s.b]) speed.set(v, Math.max(speed.get(v) ?? 0, s.speedMph));
  return speed;
}

function segmentsToEdges(segments: Segment[], points: Points): Edge[] {
  const edges: Edge[] = [];
  for (const s of segments) {
    const chain = [s.a, ...s.splits.sort((x, y) => x.t - y.t).map((split) => split.point), s.b];
    for (let k = 1; k < chain.length; k++) {
      const a = at(chain, k - 1);
      const b = at(chain, k);
      const miles = points.miles(a, b) * s.scale;
      if (a !== b) edges.push({ a, b, miles, hours: miles / s.speedMph });
    }
  }
  return edges;
}

class Components {
  private readonly parent: number[];
  constructor(count: number) {
    this.parent = Array.from({ length: count }, (_, i) => i);
  }
  find(v: number): number {
    while (this.parent[v] !== v) v = this.parent[v] = at(this.parent, at(this.parent, v));
    return v;
  }
  union(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    this.parent[ra] = rb;
    return true;
  }
}

/** Separate pieces of network are joined at their closest loose ends, shortest gap first. */
function bridgeGaps(edges: Edge[], points: Points, gapMiles: number): { components: Components; bridged: number } {
  const count = points.lon.length;
  const components = new Components(count);
  const degree = new Array<number>(count).fill(0);
  for (const e of edges) {
    components.union(e.a, e.b);
    degree[e.a] = at(degree, e.a) + 1;
    degree[e.b] = at(degree, e.b) + 1;
  }
  const speedAt = roadSpeedAt(edges.map((e) => ({ ...e, speedMph: speedOf(e) })));
  const used: number[] = [];
  const index = new Flatbush(Math.max(1, count));
  for (let v = 0; v < count; v++) {
    const { x, y } = at(points.xy, v);
    index.add(x, y);
    if (at(degree, v) > 0) used.push(v);
  }
  index.finish();
  const candidates: Edge[] = [];
  for (const v of used) {
    if (degree[v] !== 1) continue;
    const own = components.find(v);
    const { x, y } = at(points.xy, v);
    const [nearest] = index.neighbors(x, y, 1, gapMiles, (w) => at(degree, w) > 0 && components.find(w) !== own);
    if (nearest !== undefined) {
      const miles = points.miles(v, nearest);
      candidates.push({ a: v, b: nearest, miles, hours: miles / (speedAt.get(v) ?? UNCLASSIFIED_SPEED_MPH) });
    }
  }
  let bridged = 0;
  for (const gap of candidates.sort((x, y) => x.miles - y.miles)) {
    if (!components.union(gap.a, gap.b)) continue;
    edges.push(gap);
    bridged++;
  }
  return { components, bridged };
}

/** Road miles from one point to every point within `limit` (Dijkstra stopped at the limit). */
function milesWithin(
  roadsFrom: (v: number) => Iterable<{ to: number; miles: number }>,
  from: number,
  limit: number,
): Map<number, number> {
  const reached = new Map<number, number>([[from, 0]]);
  const queue = new FlatQueue<number>();
  queue.push(from, 0);
  while (queue.length > 0) {
    const settled = queue.peekValue();
    const v = queue.pop();
    if (settled === undefined || v === undefined) break;
    if (settled > (reached.get(v) ?? Infinity) || settled > limit) continue;
    for (const { to, miles } of roadsFrom(v)) {
      const total = settled + miles;
      if (total <= limit && total < (reached.get(to) ?? Infinity)) {
        reached.set(to, total);
        queue.push(to, total);
      }
    }
  }
  return reached;
}

/**
 * A loose end within a small gap of another road that the network joins only by a long way round (a line
 * drawn short of an interchange, a toll Interstate drawn in two parts) is joined to that road's nearest point.
 */
function bridgeGapsWithinPieces(edges: Edge[], points: Points, gapMiles: number, detourFactor: number): number {
  const adjacency = new Map<number, { to: number; miles: number }[]>();
  const link = (a: number, b: number, miles: number) => {
    const list = adjacency.get(a);
    if (list) list.push({ to: b, miles });
    else adjacency.set(a, [{ to: b, miles }]);
  };
  for (const e of edges) {
    link(e.a, e.b, e.miles);
    link(e.b, e.a, e.miles);
  }
  const ends = [...adjacency.entries()]
    .filter(([v, list]) =>
      isLooseEnd(
        v,
        list.map((n) => n.to),
        points,
      ),
    )
    .map(([v]) => v);
  const index = segmentIndex(edges, points);
  const speedAt = roadSpeedAt(edges.map((e) => ({ ...e, speedMph: speedOf(e) })));
  const joins: Edge[] = [];
  for (const v of ends) {
    const p = at(points.xy, v);
    let best: { edge: Edge; t: number; distance: number } | undefined;
    for (const i of index.search(p.x - gapMiles, p.y - gapMiles, p.x + gapMiles, p.y + gapMiles)) {
      const edge = at(edges, i);
      if (edge.a === v || edge.b === v) continue;
      const hit = closestOnSegment(p, at(points.xy, edge.a), at(points.xy, edge.b));
      if (hit.distance <= gapMiles && (!best || hit.distance < best.distance)) best = { edge, ...hit };
    }
    if (!best) continue;
    const reached = milesWithin((point) => adjacency.get(point) ?? [], v, detourFactor * best.distance + 5);
    if (reached.has(best.edge.a) || reached.has(best.edge.b)) continue;
    // Join the nearer end of that stretch of road: its points are a few miles apart at most.
    const target = best.t < 0.5 ? best.edge.a : best.edge.b;
    const miles = points.miles(v, target);
    joins.push({ a: v, b: target, miles, hours: miles / (speedAt.get(v) ?? UNCLASSIFIED_SPEED_MPH) });
    link(v, target, miles);
    link(target, v, miles);
  }
  edges.push(...joins);
  return joins.length;
}

/** Keeps the largest connected piece (the lower 48); islands and Alaska's pieces cannot be driven to from it. */
function largestComponent(edges: Edge[], components: Components): { kept: Edge[]; dropped: number } {
  const size = new Map<number, number>();
  for (const e of edges) size.set(components.find(e.a), (size.get(components.find(e.a)) ?? 0) + 1);
  const [largest] = [...size.entries()].sort((x, y) => y[1] - x[1])[0] ?? [undefined];
  return { kept: edges.filter((e) => components.find(e.a) === largest), dropped: Math.max(0, size.size - 1) };
}

interface ContractedEdge extends Edge {
  shape: number[];
}

/** Chains of points with exactly two roads become one edge that keeps their shape. */
function contractChains(edges: Edge[], count: number): ContractedEdge[] {
  const incident = Array.from({ length: count }, () => [] as number[]);
  edges.forEach((e, i) => {
    at(incident, e.a).push(i);
    at(incident, e.b).push(i);
  });
  const isJunction = (v: number) => at(incident, v).length !== 2;
  const used = new Uint8Array(edges.length);
  const out: ContractedEdge[] = [];
  for (let start = 0; start < count; start++) {
    if (!isJunction(start)) continue;
    for (const first of at(incident, start)) {
      if (used[first]) continue;
      used[first] = 1;
      let edge = at(edges, first);
      let here = edge.a === start ? edge.b : edge.a;
      let miles = edge.miles;
      let hours = edge.hours;
      const shape: number[] = [];
      let previous = first;
      while (!isJunction(here)) {
        shape.push(here);
        const next = at(incident, here).find((i) => i !== previous);
        if (next === undefined) throw new RangeError(`road build: point ${here} has two roads but only one edge`);
        used[next] = 1;
        edge = at(edges, next);
        here = edge.a === here ? edge.b : edge.a;
        miles += edge.miles;
        hours += edge.hours;
        previous = next;
      }
      out.push({ a: start, b: here, miles, hours, shape });
    }
  }
  return out;
}

const scaled = (value: number) => Math.round(value * COORDINATE_SCALE);

/** Turns drawn road lines into Waybill's network file (see format.ts). */
export function buildRoadNetwork(
  lines: RoadLine[],
  label: string,
  sourceSha256: string,
  source: string,
): RoadNetworkFile {
  const points = new Points(BUILD_RULES.mergeMiles);
  const segments: Segment[] = [];
  const [minScale, maxScale] = BUILD_RULES.lengthScaleBounds;
  for (const line of lines) {
    const ids = line.coordinates
      .map(([lon, lat]) => points.add(lon, lat))
      .filter((id, k, all) => k === 0 || id !== all[k - 1]);
    let drawn = 0;
    for (let k = 1; k < ids.length; k++) drawn += points.miles(at(ids, k - 1), at(ids, k));
    const scale = line.lengthMiles && drawn > 0 ? Math.min(maxScale, Math.max(minScale, line.lengthMiles / drawn)) : 1;
    const speedMph = line.speedMph ?? UNCLASSIFIED_SPEED_MPH;
    for (let k = 1; k < ids.length; k++)
      segments.push({ a: at(ids, k - 1), b: at(ids, k), scale, speedMph, splits: [] });
  }
  const crossings = splitCrossings(segments, points);
  const snappedEnds = snapDanglingEnds(segments, points, BUILD_RULES);
  const edges = segmentsToEdges(segments, points);
  const { components, bridged } = bridgeGaps(edges, points, BUILD_RULES.bridgeGapMiles);
  const bridgedWithin = bridgeGapsWithinPieces(edges, points, BUILD_RULES.bridgeGapMiles, BUILD_RULES.detourFactor);
  const { kept, dropped } = largestComponent(edges, components);
  const contracted = contractChains(kept, points.lon.length);

  const junctionId = new Map<number, number>();
  const nodes: number[] = [];
  const idOf = (v: number) => {
    let id = junctionId.get(v);
    if (id === undefined) {
      id = junctionId.size;
      junctionId.set(v, id);
      nodes.push(scaled(at(points.lon, v)), scaled(at(points.lat, v)));
    }
    return id;
  };
  const flatEdges: number[] = [];
  const shapes: number[][] = [];
  const speeds: number[] = [];
  let lengthMiles = 0;
  for (const e of contracted) {
    flatEdges.push(idOf(e.a), idOf(e.b), Math.max(1, Math.round(e.miles * LENGTH_SCALE)));
    shapes.push(e.shape.flatMap((v) => [scaled(at(points.lon, v)), scaled(at(points.lat, v))]));
    speeds.push(Math.max(1, Math.round(speedOf(e) * SPEED_SCALE)) / SPEED_SCALE);
    lengthMiles += e.miles;
  }
  const stats: RoadNetworkStats = {
    features: lines.length,
    junctions: junctionId.size,
    edges: contracted.length,
    crossings,
    snappedEnds,
    bridgedGaps: bridged + bridgedWithin,
    droppedComponents: dropped,
    lengthMiles: Math.round(lengthMiles),
  };
  return {
    format: ROAD_NETWORK_FORMAT,
    version: `${label}-r${BUILD_REVISION}-${sourceSha256.slice(0, 12)}`,
    source,
    stats,
    nodes,
    edges: flatEdges,
    shapes,
    // A file that states no speeds is routed at one speed throughout: by length, as the embedded network is.
    ...(lines.some((line) => line.speedMph !== undefined) ? { speeds } : {}),
  };
}
