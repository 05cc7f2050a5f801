export { embeddedRoadNetwork } from "./embedded.ts";
export { RoadNetwork } from "./network.ts";
export { roadMiles, ROAD_RULES, type RoadMiles } from "./road-miles.ts";
export { createRoadNetworks, importRoadNetwork, type RoadNetworks } from "./store.ts";
