import { readFileSync } from "node:fs";
import { join } from "node:path";
import { COORDINATE_SCALE, LENGTH_SCALE, type RoadNetworkFile } from "../../src/reference/roads/format.ts";

/** The embedded Interstate network written back out as GeoJSON LineStrings (one per edge, with its length): a network an operator could bring. */
export function embeddedNetworkAsGeoJson(): { type: "FeatureCollection"; features: unknown[] } {
  const file = JSON.parse(
    readFileSync(join(import.meta.dir, "../../src/reference/roads/interstates.roads"), "utf8"),
  ) as RoadNetworkFile;
  const at = (values: readonly number[], i: number) => values[i] ?? Number.NaN;
  const node = (i: number) => [at(file.nodes, 2 * i) / COORDINATE_SCALE, at(file.nodes, 2 * i + 1) / COORDINATE_SCALE];
  const features = file.shapes.map((shape, e) => {
    const between: number[][] = [];
    for (let i = 0; i < shape.length; i += 2)
      between.push([at(shape, i) / COORDINATE_SCALE, at(shape, i + 1) / COORDINATE_SCALE]);
    return {
      type: "Feature",
      properties: { length: at(file.edges, 3 * e + 2) / LENGTH_SCALE },
      geometry: {
        type: "LineString",
        coordinates: [node(at(file.edges, 3 * e)), ...between, node(at(file.edges, 3 * e + 1))],
      },
    };
  });
  return { type: "FeatureCollection", features };
}

/** A junk grid over the lower 48: a line every `step` degrees each way, as a bad import once was. */
export function junkGrid(step = 2): { type: "FeatureCollection"; features: unknown[] } {
  const features: unknown[] = [];
  for (let lon = -125; lon <= -66; lon += step)
    features.push({
      type: "Feature",
      properties: {},
      geometry: {
        type: "LineString",
        coordinates: [
          [lon, 24],
          [lon, 49],
        ],
      },
    });
  for (let lat = 24; lat <= 49; lat += step)
    features.push({
      type: "Feature",
      properties: {},
      geometry: {
        type: "LineString",
        coordinates: [
          [-125, lat],
          [-66, lat],
        ],
      },
    });
  return { type: "FeatureCollection", features };
}
