export { embeddedRoadNetwork } from "./embedded.ts";
export { RoadNetwork } from "./network.ts";
export { ROAD_ROUTING_REVISION, roadMiles, roadPath, ROAD_RULES, type RoadMiles } from "./road-miles.ts";
export {
  createRoadNetworks,
  isRoadNetworkVersion,
  promoteRoadNetwork,
  retractRoadNetwork,
  RoadNetworkStateError,
  type RoadNetworks,
  stageRoadLines,
} from "./store.ts";
