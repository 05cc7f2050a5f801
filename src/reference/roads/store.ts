import { createHash } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { embeddedRoadNetwork } from "./embedded.ts";
import { isRoadNetworkFile, type RoadNetworkFile } from "./format.ts";
import { parseRoadGeoJson, RoadFileError } from "./geojson.ts";
import { buildRoadNetwork } from "./network-build.ts";
import { RoadNetwork } from "./network.ts";

export interface RoadImportResult {
  version: string;
  added: boolean;
  stats: RoadNetworkFile["stats"];
}

/**
 * Builds a network from a GeoJSON file of road LineStrings and stores it, all or nothing. The version names
 * the file's content, so importing the same file again adds nothing. Refuses a file whose network is too
 * small to route on with RoadFileError.
 */
export function importRoadNetwork(db: Db, fileName: string, text: string, now: number): RoadImportResult {
  const sha256 = createHash("sha256").update(text).digest("hex");
  const file = buildRoadNetwork(parseRoadGeoJson(text), "imported", sha256, `imported from ${fileName}`);
  if (file.stats.edges === 0) throw new RoadFileError("the file's roads do not form a network (no two junctions connected)");
  const exists = db.$client.prepare("SELECT 1 FROM road_networks WHERE version = ?").get(file.version);
  if (!exists) {
    db.$client
      .prepare("INSERT INTO road_networks (version, file_name, file_sha256, imported_at, network) VALUES (?, ?, ?, ?, ?)")
      .run(file.version, fileName, sha256, now, JSON.stringify(file));
  }
  return { version: file.version, added: !exists, stats: file.stats };
}

export interface RoadNetworks {
  /** The network a lookup known at this moment uses: the newest imported by then, else the embedded one. */
  knownAt(knownAt: number): RoadNetwork;
  /** Re-read the list of imported networks (after another process imported one). */
  reload(): void;
}

export function createRoadNetworks(db: Db): RoadNetworks {
  const list = db.$client.prepare<{ version: string; imported_at: number }, []>("SELECT version, imported_at FROM road_networks ORDER BY imported_at, version");
  const body = db.$client.prepare<{ network: string }, [string]>("SELECT network FROM road_networks WHERE version = ?");
  const built = new Map<string, RoadNetwork>();
  let imported = list.all();
  return {
    knownAt(knownAt) {
      const newest = imported.filter((row) => row.imported_at <= knownAt).at(-1);
      if (!newest) return embeddedRoadNetwork();
      let network = built.get(newest.version);
      if (!network) {
        const parsed: unknown = JSON.parse(body.get(newest.version)!.network);
        if (!isRoadNetworkFile(parsed)) throw new Error(`stored road network ${newest.version} is not in Waybill's format`);
        network = new RoadNetwork(parsed);
        built.set(newest.version, network);
      }
      return network;
    },
    reload() {
      imported = list.all();
    },
  };
}
