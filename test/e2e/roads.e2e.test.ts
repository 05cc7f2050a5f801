import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryInEmptyFolder, runCli, startBinary } from "../support/binary.ts";

let dir: string;
let exe: string;
beforeAll(async () => {
  ({ dir, exe } = await binaryInEmptyFolder());
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One hand-drawn road Chicago - St. Louis - Oklahoma City - Dallas: an operator's own network.
const ROADS = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      properties: { name: "test corridor" },
      geometry: { type: "LineString", coordinates: [[-87.65, 41.85], [-90.2, 38.63], [-97.52, 35.47], [-96.8, 32.78]] },
    },
  ],
};

test("an operator imports a road network with the CLI and the next lookup is priced on it and names it", async () => {
  const db = "roads.db";
  writeFileSync(join(dir, "roads.geojson"), JSON.stringify(ROADS));
  writeFileSync(join(dir, "points.geojson"), JSON.stringify({ type: "FeatureCollection", features: [{ type: "Feature", geometry: { type: "Point", coordinates: [-90, 40] } }] }));

  const refused = runCli(exe, ["data", "import", "roads", "points.geojson", "--db", db], dir);
  expect(refused.exitCode).toBe(1);
  expect(refused.stderr.trim().split("\n")).toHaveLength(1);
  expect(refused.stderr).toContain("points.geojson is not a usable road network: feature 0: geometry must be a LineString");

  const imported = runCli(exe, ["data", "import", "roads", "roads.geojson", "--json", "--db", db], dir);
  expect(imported.exitCode).toBe(0);
  const { network, added } = JSON.parse(imported.stdout) as { network: string; added: boolean };
  expect(network).toMatch(/^imported-[0-9a-f]{12}$/);
  expect(added).toBe(true);
  expect(JSON.parse(runCli(exe, ["data", "import", "roads", "roads.geojson", "--json", "--db", db], dir).stdout).added).toBe(false);

  expect(runCli(exe, ["accounts", "create", "--email", "ops@example.com", "--tier", "starter", "--db", db], dir).exitCode).toBe(0);
  const key = JSON.parse(runCli(exe, ["keys", "create", "--email", "ops@example.com", "--json", "--db", db], dir).stdout).key as string;
  const server = await startBinary(exe, ["--db", db], { cwd: dir });
  try {
    const response = await fetch(`${server.url}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { distance_method: string; distance: { road_network: string }; miles: number };
    expect(answer.distance_method).toBe("ROAD_NETWORK");
    expect(answer.distance.road_network).toBe(network);

    const island = await fetch(`${server.url}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ origin: "Honolulu, HI", destination: "Los Angeles, CA", equipment: "DRY_VAN" }),
    });
    expect(island.status).toBe(422);
    expect(await island.json()).toMatchObject({ error: "NOT_ROAD_CONNECTED", field: "origin" });
  } finally {
    await server.stop();
  }
}, 120_000);
