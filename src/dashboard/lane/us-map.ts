import { mesh } from "topojson-client";
import statesAlbers from "us-atlas/states-albers-10m.json" with { type: "json" };

/**
 * The lower 48 as the server draws them (no tiles, nothing from a CDN): us-atlas's state outlines,
 * already projected to the Albers USA projection in a 975 × 610 frame, and any point projected the
 * same way, so a route lines up with the outlines.
 */
export interface MapPoint {
  lat: number;
  lon: number;
}

/** Alaska and Hawaii are insets in the Albers USA frame; a truckload lane map shows the lower 48. */
const INSETS = new Set(["02", "15"]);

/**
 * The lower 48 part of d3's geoAlbersUsa as us-atlas projected it (scale 1300, translate
 * [487.5, 305]): a conic equal-area projection with standard parallels 29.5°N and 45.5°N, rotated
 * to 96°W and centred on 38.7°N, 0.6°W of that meridian.
 */
const SCALE = 1300;
const TRANSLATE = [487.5, 305] as const;
const RADIANS = Math.PI / 180;
const sinLower = Math.sin(29.5 * RADIANS);
const n = (sinLower + Math.sin(45.5 * RADIANS)) / 2;
const c = 1 + sinLower * (2 * n - sinLower);
const r0 = Math.sqrt(c) / n;

function conicEqualArea(lambda: number, phi: number): [number, number] {
  const r = Math.sqrt(c - 2 * n * Math.sin(phi)) / n;
  return [r * Math.sin(lambda * n), r0 - r * Math.cos(lambda * n)];
}

const centre = conicEqualArea(-0.6 * RADIANS, 38.7 * RADIANS);

/** A point's place in the map's 975 × 610 frame. */
export function projectAlbers(point: MapPoint): [number, number] {
  const [x, y] = conicEqualArea((point.lon + 96) * RADIANS, point.lat * RADIANS);
  return [TRANSLATE[0] + SCALE * (x - centre[0]), TRANSLATE[1] - SCALE * (y - centre[1])];
}

/** Round to a tenth of a pixel, and drop points that land on the one before: the outlines stay a few dozen KB. */
function pathData(lines: readonly (readonly (readonly number[])[])[]): string {
  const parts: string[] = [];
  for (const line of lines) {
    let last = "";
    let command = "M";
    for (const [x = 0, y = 0] of line) {
      const here = `${Math.round(x)} ${Math.round(y)}`;
      if (here === last) continue;
      parts.push(`${command}${here}`);
      command = "L";
      last = here;
    }
  }
  return parts.join("");
}

type Topology = Parameters<typeof mesh>[0];
type GeometryObject = NonNullable<Parameters<typeof mesh>[1]>;

let borders: string | undefined;

/** Every border of the lower 48 (shared ones once) as one SVG path's `d`. */
export function stateBorders(): string {
  if (borders === undefined) {
    const topology = statesAlbers as unknown as Topology;
    const states = topology.objects.states as GeometryObject;
    const inLower48 = (geometry: GeometryObject) => !INSETS.has(String(geometry.id));
    const lines = mesh(topology, states, (a, b) => inLower48(a) && inLower48(b));
    borders = pathData(lines.coordinates);
  }
  return borders;
}

/** A route through the frame as an SVG path's `d`. */
export function routeData(points: readonly MapPoint[]): string {
  return pathData([points.map(projectAlbers)]);
}

/** The frame of the lower 48 in the projected space: x, y, width, height. */
export const LOWER_48_VIEWBOX = "20 0 930 560";
