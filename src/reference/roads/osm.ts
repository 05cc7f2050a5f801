/**
 * An OpenStreetMap extract (`.osm.pbf`) read as road lines: the ways tagged as the roads trucks run on
 * between cities (motorway, trunk, primary and their links), read in two streaming passes with
 * osm-pbf-parser-node so that only those ways' nodes are held: the first collects the ways, the
 * second the coordinates of their nodes. docs/rate-model.md, "Bring your own road network".
 */
import { createOSMStream } from "osm-pbf-parser-node";
import { RoadFileError } from "./geojson.ts";
import type { RoadLine } from "./network-build.ts";
import { roadSpeed } from "./road-class.ts";

export const OSM_TRUCK_HIGHWAYS = new Set([
  "motorway",
  "motorway_link",
  "trunk",
  "trunk_link",
  "primary",
  "primary_link",
]);

interface OsmItem {
  type?: string;
  id?: number;
  lat?: number;
  lon?: number;
  refs?: number[];
  tags?: Record<string, string>;
}

/** The truck roads of an extract as lines of [lon, lat]; RoadFileError when the file holds none or is not a PBF. */
export async function readOsmRoadLines(path: string): Promise<{ lines: RoadLine[]; ways: number }> {
  const ways: { refs: number[]; speedMph: number }[] = [];
  const needed = new Set<number>();
  try {
    for await (const item of createOSMStream(path, {
      withTags: { node: false, way: ["highway", "maxspeed"], relation: false },
    })) {
      const way = item as OsmItem;
      if (way.type !== "way" || !way.refs || !OSM_TRUCK_HIGHWAYS.has(way.tags?.highway ?? "")) continue;
      ways.push({ refs: way.refs, speedMph: roadSpeed(way.tags).speedMph });
      for (const ref of way.refs) needed.add(ref);
    }
    if (ways.length === 0) throw new RoadFileError("no motorway, trunk or primary ways in the extract");
    const at = new Map<number, [number, number]>();
    for await (const item of createOSMStream(path, { withTags: false })) {
      const node = item as OsmItem;
      if (
        node.type === "node" &&
        node.id !== undefined &&
        needed.has(node.id) &&
        node.lon !== undefined &&
        node.lat !== undefined
      )
        at.set(node.id, [node.lon, node.lat]);
    }
    const lines = ways
      .map(({ refs, speedMph }) => ({
        coordinates: refs.map((ref) => at.get(ref)).filter((point): point is [number, number] => point !== undefined),
        speedMph,
      }))
      .filter((line) => line.coordinates.length >= 2);
    return { lines, ways: ways.length };
  } catch (error) {
    if (error instanceof RoadFileError) throw error;
    throw new RoadFileError(`not a readable OpenStreetMap PBF extract (${(error as Error).message})`);
  }
}
