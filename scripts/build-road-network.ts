// Builds the embedded road network (src/reference/roads/interstates.roads) from the Interstate GeoJSON.
// Usage: bun scripts/build-road-network.ts [GEOJSON] ; default ../shared/data/us_interstate_highways_roads.geojson
// The source is MIT-licensed (Copyright (c) 2017 Uber Technologies, Inc.); its notice is in THIRD_PARTY_NOTICES.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { parseRoadGeoJson } from "../src/reference/roads/geojson.ts";
import { buildRoadNetwork } from "../src/reference/roads/network-build.ts";

const input =
  process.argv[2] ?? new URL("../../../shared/data/us_interstate_highways_roads.geojson", import.meta.url).pathname;
const output = new URL("../src/reference/roads/interstates.roads", import.meta.url).pathname;

const text = readFileSync(input, "utf8");
const sha256 = createHash("sha256").update(text).digest("hex");
const started = performance.now();
const network = buildRoadNetwork(
  parseRoadGeoJson(text),
  "interstates",
  sha256,
  "US Interstate highways as drawn in deck.gl-data examples/highway/roads.json (MIT, Copyright (c) 2017 Uber Technologies, Inc.)",
);
writeFileSync(output, `${JSON.stringify(network)}\n`);
// The repository's formatter owns the file's layout (CI checks it), so the build leaves it formatted.
const formatted = Bun.spawnSync(["npx", "biome", "format", "--write", output], { stdout: "ignore", stderr: "inherit" });
if (formatted.exitCode !== 0) throw new Error(`biome format ${output} failed`);
console.log(
  `${network.version}: ${JSON.stringify(network.stats)} in ${Math.round(performance.now() - started)} ms -> ${output}`,
);
