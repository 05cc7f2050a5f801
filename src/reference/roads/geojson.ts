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

/**
 * Road lines from a GeoJSON FeatureCollection of LineString / MultiLineString features. A feature's
 * `properties.length` (miles), when present, is the real road's length; its class and speed attributes
 * (road-class.ts) give the truck speed routing uses. Anything else is refused whole.
 */
export function parseRoadGeoJson(text: string): RoadLine[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new RoadFileError("not JSON: expected a GeoJSON FeatureCollection of LineStrings");
  }
  const features = (document as { type?: unknown; features?: unknown }).features;
  if ((document as { type?: unknown }).type !== "FeatureCollection" || !Array.isArray(features)) {
    throw new RoadFileError("expected a GeoJSON FeatureCollection");
  }
  const lines: RoadLine[] = [];
  features.forEach(
    (
      feature: { geometry?: { type?: unknown; coordinates?: unknown }; properties?: Record<string, unknown> | null },
      i,
    ) => {
      const geometry = feature?.geometry;
      const length = feature?.properties?.length;
      const { speedMph } = roadSpeed(feature?.properties);
      if (geometry?.type === "LineString") lines.push(toLine(geometry.coordinates, length, speedMph, `feature ${i}`));
      else if (geometry?.type === "MultiLineString" && Array.isArray(geometry.coordinates)) {
        for (const part of geometry.coordinates) lines.push(toLine(part, undefined, speedMph, `feature ${i}`));
      } else throw new RoadFileError(`feature ${i}: geometry must be a LineString or MultiLineString`);
    },
  );
  if (lines.length === 0) throw new RoadFileError("the FeatureCollection holds no road lines");
  return lines;
}
