import { readFileSync } from "node:fs";
import { isRoadNetworkFile, type RoadNetworkFile } from "./format.ts";
import { RoadNetwork } from "./network.ts";
// Embedded as a file (Bun `type: "file"`, built by scripts/build-road-network.ts): read once into the
// network's typed arrays and then let go. A JSON import kept every parsed array (about 45,000 objects)
// alive for the life of the process, for each full garbage collection to visit (docs/performance.md).
import interstatesFile from "./interstates.roads" with { type: "file" };

let embedded: RoadNetwork | undefined;

/** The Interstate network shipped in the binary; built on first use (junction index and landmark distances). */
export function embeddedRoadNetwork(): RoadNetwork {
  embedded ??= new RoadNetwork(readEmbeddedFile());
  return embedded;
}

function readEmbeddedFile(): RoadNetworkFile {
  const parsed: unknown = JSON.parse(readFileSync(interstatesFile, "utf8"));
  if (!isRoadNetworkFile(parsed)) throw new Error("the embedded road network is not a waybill.roads/1 file");
  return parsed;
}
