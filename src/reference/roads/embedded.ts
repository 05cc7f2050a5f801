import type { RoadNetworkFile } from "./format.ts";
import { RoadNetwork } from "./network.ts";
// A static JSON import: the bundler embeds the network in the compiled binary (built by scripts/build-road-network.ts).
import interstates from "./interstates.json";

let embedded: RoadNetwork | undefined;

/** The Interstate network shipped in the binary; built on first use (junction index and landmark distances). */
export function embeddedRoadNetwork(): RoadNetwork {
  embedded ??= new RoadNetwork(interstates as RoadNetworkFile);
  return embedded;
}
