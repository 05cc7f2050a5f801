import { closeSync, openSync, readSync } from "node:fs";
import { JSONParser } from "@streamparser/json";
import type { RoadLine } from "./network-build.ts";
import { roadSpeed } from "./road-class.ts";

export class RoadFileError extends Error {}

const isLonLat = (value: unknown): value is [number, number] =>
  Array.isArray(value) &&
  value.length >= 2 &&
  typeof value[0] === "number" &&
  typeof value[1] === "number" &&
  Math.abs(value[0]) <= 180 &&
  Math.abs(value[1]) <= 90;

function toLine(coordinates: unknown, lengthMiles: unknown, speedMph: number, where: string): RoadLine {
  if (!Array.isArray(coordinates) || coordinates.length < 2 || !coordinates.every(isLonLat)) {
    throw new RoadFileError(`${where}: a LineString needs at least two [lon, lat] positions within range`);
  }
  const line: RoadLine = { coordinates: coordinates.map(([lon, lat]) => [lon, lat]), speedMph };
  if (typeof lengthMiles === "number" && lengthMiles > 0 && Number.isFinite(lengthMiles))
    line.lengthMiles = lengthMiles;
  return line;
}

interface Feature {
  geometry?: { type?: unknown; coordinates?: unknown };
  properties?: Record<string, unknown> | null;
}

/** One feature's road lines: a LineString, or each part of a MultiLineString, at the feature's truck speed. */
function featureLines(feature: Feature | null, i: number): RoadLine[] {
  const geometry = feature?.geometry;
  const length = feature?.properties?.length;
  const { speedMph } = roadSpeed(feature?.properties);
  if (geometry?.type === "LineString") return [toLine(geometry.coordinates, length, speedMph, `feature ${i}`)];
  if (geometry?.type === "MultiLineString" && Array.isArray(geometry.coordinates))
    return geometry.coordinates.map((part) => toLine(part, undefined, speedMph, `feature ${i}`));
  throw new RoadFileError(`feature ${i}: geometry must be a LineString or MultiLineString`);
}

/**
 * Road lines from a GeoJSON FeatureCollection of LineString / MultiLineString features, read as a stream
 * (@streamparser/json): each feature is turned into road lines as soon as it is parsed and then let go, so a
 * large file is never held whole as text or as parsed objects. A feature's `properties.length` (miles), when
 * present, is the real road's length; its class and speed attributes (road-class.ts) give the truck speed
 * routing uses. Anything else is refused whole.
 */
class RoadGeoJsonReader {
  private readonly parser = new JSONParser({ paths: ["$.type", "$.features.*"], keepStack: false });
  private type: unknown;
  private features = 0;
  private readonly lines: RoadLine[] = [];

  constructor() {
    this.parser.onValue = ({ value, parent, stack }) => {
      if (stack.length === 1) this.type = value;
      else if (!Array.isArray(parent)) throw new RoadFileError("expected a GeoJSON FeatureCollection");
      else this.lines.push(...featureLines(value as Feature | null, this.features++));
    };
  }

  write(chunk: string | Uint8Array): void {
    try {
      this.parser.write(chunk);
    } catch (error) {
      if (error instanceof RoadFileError) throw error;
      throw new RoadFileError("not JSON: expected a GeoJSON FeatureCollection of LineStrings");
    }
  }

  finish(): RoadLine[] {
    try {
      if (!this.parser.isEnded) this.parser.end();
    } catch {
      throw new RoadFileError("not JSON: expected a GeoJSON FeatureCollection of LineStrings");
    }
    if (this.type !== "FeatureCollection") throw new RoadFileError("expected a GeoJSON FeatureCollection");
    if (this.lines.length === 0) throw new RoadFileError("the FeatureCollection holds no road lines");
    return this.lines;
  }
}

/** Road lines from a GeoJSON document held as text (see RoadGeoJsonReader). */
export function parseRoadGeoJson(text: string): RoadLine[] {
  const reader = new RoadGeoJsonReader();
  reader.write(text);
  return reader.finish();
}

const CHUNK_BYTES = 1 << 20;

/** Road lines from a GeoJSON file, read a chunk at a time (see RoadGeoJsonReader). */
export function readRoadGeoJsonFile(path: string): RoadLine[] {
  const reader = new RoadGeoJsonReader();
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const fd = openSync(path, "r");
  try {
    for (
      let read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      read > 0;
      read = readSync(fd, buffer, 0, CHUNK_BYTES, null)
    )
      reader.write(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return reader.finish();
}
