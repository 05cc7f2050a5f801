import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dataImport, dataRetract } from "../../../src/cli/data.ts";
import { roadsPromote } from "../../../src/cli/data-roads.ts";
import { parseRoadGeoJson, readRoadGeoJsonFile } from "../../../src/reference/roads/geojson.ts";
import { embeddedRoadNetwork } from "../../../src/reference/roads/index.ts";
import { rateLookupSkill } from "../../../src/skills/rate-lookup/skill.ts";
import { skillContext } from "../../support/skill-call.ts";
import { LOADED_AT, snapshotReferenceData } from "../helpers.ts";
import { CORRIDOR_ROADS } from "../../support/road-corridor.ts";
import { embeddedNetworkAsGeoJson, junkGrid } from "../../support/road-geojson.ts";

const TMP = resolve(import.meta.dir, "../../../.tmp");
mkdirSync(TMP, { recursive: true });

function roadFile(name: string, content: unknown): string {
  const file = join(TMP, `waybill-${name}-${process.pid}.geojson`);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const input = {
  origin: "Houston, TX",
  destination: "Jacksonville, FL",
  equipment: "DRY_VAN",
  as_of: "2026-09-22",
} as const;

test("an imported network is staged with its report and prices nothing until promoted; retracting it falls back", async () => {
  const { db, data } = await snapshotReferenceData();
  const importedAt = LOADED_AT + 60_000;
  const result = await dataImport(db, "roads", roadFile("interstates", embeddedNetworkAsGeoJson()), {
    json: true,
    now: importedAt,
  });
  expect(result.exitCode).toBe(0);
  const { network, report } = JSON.parse(result.output) as {
    network: string;
    report: { passed: boolean; comparedWith: string; checks: { name: string; passed: boolean }[] };
  };
  expect(report).toMatchObject({ passed: true, comparedWith: embeddedRoadNetwork().version });
  expect(report.checks.map((c) => c.name)).toContain("lane Houston - Jacksonville");
  expect(report.checks.find((c) => c.name === "memory")).toMatchObject({
    passed: true,
    detail: expect.stringMatching(/^\d+ MiB more resident at most .*cap 2048 MiB/),
  });
  data.reload();
  const price = (knownAt: number) =>
    rateLookupSkill.handler(input, skillContext(data, data.view(input.as_of, knownAt))).answer;
  // Staged: still the embedded network.
  expect(price(importedAt + 1).distance.road_network).toBe(embeddedRoadNetwork().version);

  const promotedAt = importedAt + 60_000;
  expect((await roadsPromote(db, network, { now: promotedAt })).exitCode).toBe(0);
  data.reload();
  expect(price(promotedAt).distance.road_network).toBe(network);
  expect(price(promotedAt - 1).distance.road_network).toBe(embeddedRoadNetwork().version);
  expect(Math.abs(price(promotedAt).miles - price(promotedAt - 1).miles)).toBeLessThan(
    0.15 * price(promotedAt - 1).miles,
  );

  const retractedAt = promotedAt + 60_000;
  const retracted = await dataRetract(db, network, "wrong extract", { now: retractedAt });
  expect(retracted.output).toMatch(/^retracted road network imported-r\d+-[0-9a-f]{12} at .*: wrong extract/);
  data.reload();
  expect(price(retractedAt).distance.road_network).toBe(embeddedRoadNetwork().version);
  expect(price(retractedAt - 1).distance.road_network).toBe(network); // a receipt signed before keeps its network
  expect((await roadsPromote(db, network, { now: retractedAt + 1 })).output).toContain("was retracted");
}, 120_000);

test("a junk grid fails its reference lanes and cannot be promoted; a corridor fails coverage", async () => {
  const { db, data } = await snapshotReferenceData();
  const grid = await dataImport(db, "roads", roadFile("grid", junkGrid()), { now: LOADED_AT + 1 });
  expect(grid.exitCode).toBe(0);
  const lines = grid.output.split("\n");
  expect(lines[1]).toMatch(/^checks against interstates-.*: FAILED$/);
  // A grid runs north-south and east-west: a diagonal lane comes out far longer than the Interstates'.
  expect(lines.find((l) => l.includes("lane Atlanta - New York"))).toMatch(
    /^ {2}FAIL lane Atlanta - New York: 10\d\d mi; interstates-r\d+-[0-9a-f]+ gives 879 mi \(band ±15%\)$/,
  );
  expect(lines.at(-1)).toBe("it failed its checks and cannot be promoted");
  const version = /staged road network (\S+)/.exec(grid.output)?.[1] ?? "";
  const refused = await roadsPromote(db, version, { now: LOADED_AT + 2 });
  expect(refused.exitCode).toBe(1);
  expect(refused.output).toMatch(/failed its checks and cannot price lanes: .*lane Atlanta - New York/);
  data.reload();
  const answer = rateLookupSkill.handler(input, skillContext(data, data.view(input.as_of, LOADED_AT + 3))).answer;
  expect(answer.distance.road_network).toBe(embeddedRoadNetwork().version);

  const corridor = await dataImport(db, "roads", roadFile("corridor", CORRIDOR_ROADS), { now: LOADED_AT + 4 });
  expect(corridor.output).toMatch(/FAIL coverage of the lower 48: farther than 60 mi from any road: Seattle/);
});

test("a file that is not road lines is refused in one line and stores nothing; an oversized one is refused unread", async () => {
  const { db } = await snapshotReferenceData();
  const file = roadFile("not-roads", {
    type: "FeatureCollection",
    features: [{ type: "Feature", geometry: { type: "Polygon", coordinates: [] } }],
  });
  const result = await dataImport(db, "roads", file);
  expect(result).toEqual({
    exitCode: 1,
    output: expect.stringMatching(
      /^waybill: .* is not a usable road network: feature 0: geometry must be a LineString or MultiLineString$/,
    ),
  });
  const big = await dataImport(db, "roads", roadFile("big", junkGrid(1)), { maxMb: 0.001 });
  expect(big.output).toMatch(/is \d+ bytes, over the import limit of 0.001 MiB/);
  expect(db.$client.prepare("SELECT count(*) AS n FROM road_networks").get()).toEqual({ n: 0 });
});

test("a GeoJSON file is read as a stream, a chunk at a time, to the same road lines as its text", () => {
  const content = embeddedNetworkAsGeoJson();
  const text = JSON.stringify(content);
  // Over the reader's 1 MiB chunk, so that features, numbers and strings are split between chunks.
  expect(text.length).toBeGreaterThan(2 ** 20);
  const fromFile = readRoadGeoJsonFile(roadFile("streamed", content));
  expect(fromFile.length).toBeGreaterThan(1000);
  expect(fromFile).toEqual(parseRoadGeoJson(text));
});
