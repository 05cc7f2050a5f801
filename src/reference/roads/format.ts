/**
 * Waybill's own road-network file (docs/rate-model.md, "Road miles"): junctions, the road edges between
 * them with their length, and each edge's shape for snapping places onto it. Built from GeoJSON
 * LineStrings by network-build.ts, both for the embedded network and for `waybill data import roads`.
 */
export const ROAD_NETWORK_FORMAT = "waybill.roads/1";

/** Coordinates are stored as integers of this many degrees (1e-5 degree is about 1 m). */
export const COORDINATE_SCALE = 1e5;
/** Edge lengths are stored in hundredths of a mile. */
export const LENGTH_SCALE = 100;
/** Edge speeds are stored in mph to a tenth. */
export const SPEED_SCALE = 10;

export interface RoadNetworkStats {
  features: number;
  junctions: number;
  edges: number;
  crossings: number;
  snappedEnds: number;
  bridgedGaps: number;
  droppedComponents: number;
  lengthMiles: number;
}

export interface RoadNetworkFile {
  format: typeof ROAD_NETWORK_FORMAT;
  /** Names the network in answers and receipts: a label and the first 12 hex of the source file's SHA-256. */
  version: string;
  source: string;
  stats: RoadNetworkStats;
  /** Junctions as [lon, lat] pairs, flattened, x COORDINATE_SCALE. */
  nodes: number[];
  /** [from, to, length x LENGTH_SCALE] triples, flattened. */
  edges: number[];
  /** Per edge, the shape points between its two junctions as [lon, lat] pairs, flattened, x COORDINATE_SCALE. */
  shapes: number[][];
  /**
   * Per edge, a loaded truck's mean speed over it in mph (road-class.ts), when the source file states road
   * classes or speeds; routing then minimises travel time. Absent: one speed throughout, routing by length.
   */
  speeds?: number[];
}

export function isRoadNetworkFile(value: unknown): value is RoadNetworkFile {
  const file = value as Partial<RoadNetworkFile> | null;
  return (
    typeof file === "object" &&
    file !== null &&
    file.format === ROAD_NETWORK_FORMAT &&
    typeof file.version === "string" &&
    Array.isArray(file.nodes) &&
    Array.isArray(file.edges) &&
    Array.isArray(file.shapes) &&
    file.edges.length === file.shapes.length * 3 &&
    (file.speeds === undefined ||
      (Array.isArray(file.speeds) &&
        file.speeds.length === file.shapes.length &&
        file.speeds.every((speed) => typeof speed === "number" && speed > 0)))
  );
}
