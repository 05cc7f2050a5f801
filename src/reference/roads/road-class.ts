/**
 * A road's class and the speed a loaded truck keeps on it, read from the attributes the common road files
 * carry: OpenStreetMap `highway`/`maxspeed`, US Census TIGER `MTFCC`, Natural Earth `type`/`class`. Routing
 * minimises travel time at these speeds (docs/rate-model.md, "Road classes and truck speeds").
 */

export type RoadClass = "motorway" | "trunk" | "primary" | "secondary" | "local" | "ramp";

/** Truck speed by class, mph, when the file states no speed limit; the why of each is in docs/rate-model.md. */
export const TRUCK_SPEED_MPH: Record<RoadClass, number> = {
  motorway: 62,
  trunk: 52,
  primary: 45,
  secondary: 40,
  local: 25,
  ramp: 35,
};

/** A road whose file names no class: taken as the Interstate-grade road the embedded network is made of. */
export const UNCLASSIFIED_SPEED_MPH = TRUCK_SPEED_MPH.motorway;

/** No truck is taken to run faster than this, whatever the posted limit (fleets govern trucks at 65-70 mph). */
export const MAX_TRUCK_SPEED_MPH = 70;

const OSM_CLASS: Record<string, RoadClass> = {
  motorway: "motorway",
  trunk: "trunk",
  primary: "primary",
  secondary: "secondary",
  tertiary: "local",
  unclassified: "local",
  residential: "local",
  motorway_link: "ramp",
  trunk_link: "ramp",
  primary_link: "ramp",
  secondary_link: "ramp",
  tertiary_link: "ramp",
};

/** TIGER/Line MAF/TIGER Feature Class Codes for roads (S1xxx). */
const TIGER_CLASS: Record<string, RoadClass> = {
  S1100: "motorway",
  S1200: "primary",
  S1400: "local",
  S1630: "ramp",
  S1640: "local",
};

/** Natural Earth roads: `class` names the jurisdiction (Interstate, Federal, State), `type` the build. */
function naturalEarthClass(
  type: string | undefined,
  level: string | undefined,
  expressway: unknown,
): RoadClass | undefined {
  if (level === "Interstate" || type === "Beltway" || expressway === 1) return "motorway";
  // A ferry crossing is counted at local-road speed: the boat is slow and the wait for it is long.
  if (type?.startsWith("Ferry")) return "local";
  if (level === "Federal") return type === "Major Highway" ? "trunk" : "primary";
  if (type === "Major Highway") return "primary";
  if (type === "Secondary Highway" || level === "State") return "secondary";
  if (type === "Road" || type === "Track") return "local";
  return undefined;
}

/**
 * A posted limit in mph: OSM's `maxspeed` is km/h unless it says `mph` ("55 mph", "90", "90 km/h");
 * anything else ("none", "signals", "RU:rural") is no limit.
 */
export function parseMaxspeedMph(value: unknown): number | undefined {
  if (typeof value === "number") return value > 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh|kph)?\s*$/i.exec(value);
  if (!match) return undefined;
  const number = Number(match[1]);
  if (!(number > 0)) return undefined;
  return match[2]?.toLowerCase() === "mph" ? number : number / 1.609344;
}

export interface RoadSpeed {
  roadClass?: RoadClass;
  speedMph: number;
}

const asString = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The class and truck speed of one road from its properties (GeoJSON feature properties or OSM tags). */
export function roadSpeed(properties: Record<string, unknown> | null | undefined): RoadSpeed {
  const p = properties ?? {};
  const highway = asString(p.highway);
  const mtfcc = asString(p.MTFCC ?? p.mtfcc);
  const roadClass =
    (highway ? OSM_CLASS[highway] : undefined) ??
    (mtfcc ? TIGER_CLASS[mtfcc.toUpperCase()] : undefined) ??
    naturalEarthClass(asString(p.type), asString(p.class ?? p.level), p.expressway);
  const posted = parseMaxspeedMph(p.maxspeed);
  const speedMph = posted ?? (roadClass ? TRUCK_SPEED_MPH[roadClass] : UNCLASSIFIED_SPEED_MPH);
  return { ...(roadClass ? { roadClass } : {}), speedMph: Math.min(MAX_TRUCK_SPEED_MPH, speedMph) };
}
