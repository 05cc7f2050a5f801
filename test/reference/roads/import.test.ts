import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dataImport } from "../../../src/cli/data.ts";
import { embeddedRoadNetwork } from "../../../src/reference/roads/index.ts";
import { rateLookupSkill } from "../../../src/skills/rate-lookup/skill.ts";
import { skillContext } from "../../support/skill-call.ts";
import { LOADED_AT, snapshotReferenceData } from "../helpers.ts";
import { CORRIDOR_ROADS } from "../../support/road-corridor.ts";

const TMP = resolve(import.meta.dir, "../../../.tmp");
mkdirSync(TMP, { recursive: true });

test("an imported network prices lookups known after the import; views known before keep the embedded one", async () => {
  const { db, data } = await snapshotReferenceData();
  const file = join(TMP, `waybill-roads-${process.pid}.geojson`);
  writeFileSync(file, JSON.stringify(CORRIDOR_ROADS));
  const importedAt = LOADED_AT + 60_000;
  const result = await dataImport(db, "roads", file, { json: true, now: importedAt });
  expect(result.exitCode).toBe(0);
  const { network } = JSON.parse(result.output) as { network: string };
  data.reload();

  const input = {
    origin: "Chicago, IL",
    destination: "Dallas, TX",
    equipment: "DRY_VAN",
    as_of: "2026-09-22",
  } as const;
  const price = (knownAt: number) =>
    rateLookupSkill.handler(input, skillContext(data, data.view(input.as_of, knownAt))).answer;
  expect(price(importedAt).distance.road_network).toBe(network);
  expect(price(importedAt - 1).distance.road_network).toBe(embeddedRoadNetwork().version);
});

test("a file that is not road lines is refused in one line and stores nothing", async () => {
  const { db } = await snapshotReferenceData();
  const file = join(TMP, `waybill-not-roads-${process.pid}.geojson`);
  writeFileSync(
    file,
    JSON.stringify({
      type: "FeatureCollection",
      features: [{ type: "Feature", geometry: { type: "Polygon", coordinates: [] } }],
    }),
  );
  const result = await dataImport(db, "roads", file);
  expect(result).toEqual({
    exitCode: 1,
    output: expect.stringMatching(
      /^waybill: .* is not a usable road network: feature 0: geometry must be a LineString or MultiLineString$/,
    ),
  });
  expect(db.$client.prepare("SELECT count(*) AS n FROM road_networks").get()).toEqual({ n: 0 });
});
