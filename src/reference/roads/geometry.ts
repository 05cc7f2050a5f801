/**
 * Planar helpers for road geometry. Coordinates are projected to miles with a sinusoidal projection
 * (x = lon x cos(lat) x 69.17, y = lat x 69.05): within a few miles of a point it keeps distances
 * within a fraction of a percent, which is all snapping and crossing detection need. Lengths that
 * end up in a price use great-circle miles (reference/distance.ts) instead.
 */
const MILES_PER_DEGREE_LAT = 69.05;
const MILES_PER_DEGREE_LON_AT_EQUATOR = 69.17;

export interface XY {
  x: number;
  y: number;
}

export function project(lon: number, lat: number): XY {
  return { x: lon * Math.cos((lat * Math.PI) / 180) * MILES_PER_DEGREE_LON_AT_EQUATOR, y: lat * MILES_PER_DEGREE_LAT };
}

/**
 * A projection centred on one place (equirectangular at its latitude): near that place it keeps distances in
 * every direction, where the sinusoidal one shears north-south offsets far from its meridian (by 35 % at 85 deg W).
 */
export function projectAround(centre: { lon: number; lat: number }): (lon: number, lat: number) => XY {
  const milesPerDegreeLon = Math.cos((centre.lat * Math.PI) / 180) * MILES_PER_DEGREE_LON_AT_EQUATOR;
  return (lon, lat) => ({ x: (lon - centre.lon) * milesPerDegreeLon, y: (lat - centre.lat) * MILES_PER_DEGREE_LAT });
}

/** The point on segment a-b closest to p: its parameter t in [0, 1] and its distance in miles. */
export function closestOnSegment(p: XY, a: XY, b: XY): { t: number; distance: number } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared));
  return { t, distance: Math.hypot(a.x + t * dx - p.x, a.y + t * dy - p.y) };
}

/** Where segments a-b and c-d cross: parameters t on a-b and u on c-d, both in [0, 1], or undefined. */
export function segmentCrossing(a: XY, b: XY, c: XY, d: XY): { t: number; u: number } | undefined {
  const rx = b.x - a.x;
  const ry = b.y - a.y;
  const sx = d.x - c.x;
  const sy = d.y - c.y;
  const denominator = rx * sy - ry * sx;
  if (Math.abs(denominator) < 1e-12) return undefined;
  const t = ((c.x - a.x) * sy - (c.y - a.y) * sx) / denominator;
  const u = ((c.x - a.x) * ry - (c.y - a.y) * rx) / denominator;
  return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? { t, u } : undefined;
}
