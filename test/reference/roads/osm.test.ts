import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dataImport } from "../../../src/cli/data.ts";
import { snapshotReferenceData } from "../helpers.ts";
import { haveOsmium, osmExtract } from "../../support/osm-extract.ts";

const TMP = resolve(import.meta.dir, "../../../.tmp");
mkdirSync(TMP, { recursive: true });

test.skipIf(!haveOsmium)(
  "data import osm keeps motorway, trunk and primary ways (and links), drops the rest, and stages the network",
  async () => {
    const { db } = await snapshotReferenceData();
    const pbf = osmExtract([
      // Chicago - St. Louis - Oklahoma City - Dallas as motorway, trunk and primary, joined end to end.
      {
        highway: "motorway",
        points: [
          [-87.65, 41.85],
          [-89.0, 40.5],
          [-90.2, 38.63],
        ],
      },
      {
        highway: "trunk",
        points: [
          [-90.2, 38.63],
          [-94.0, 37.0],
          [-97.52, 35.47],
        ],
      },
      {
        highway: "primary",
        points: [
          [-97.52, 35.47],
          [-96.8, 32.78],
        ],
      },
      {
        highway: "motorway_link",
        points: [
          [-96.8, 32.78],
          [-96.79, 32.79],
        ],
      },
      // A residential street across the middle: not a truck road between cities.
      {
        highway: "residential",
        points: [
          [-89.0, 40.5],
          [-97.52, 35.47],
        ],
      },
    ]);
    const result = await dataImport(db, "osm", pbf, { json: true, now: Date.parse("2026-11-23T08:00:00Z") });
    expect(result.exitCode).toBe(0);
    const staged = JSON.parse(result.output) as {
      network: string;
      features: number;
      lengthMiles: number;
      report: { passed: boolean };
    };
    expect(staged.network).toMatch(/^imported-r\d+-[0-9a-f]{12}$/);
    expect(staged.features).toBe(4);
    // About 1,000 mi of road from Chicago to Dallas; the residential diagonal would have added about 560.
    expect(staged.lengthMiles).toBeGreaterThan(900);
    expect(staged.lengthMiles).toBeLessThan(1100);
    // A corridor is not a network for the lower 48: staged, failing coverage.
    expect(staged.report.passed).toBe(false);
  },
);

test("a file that is not a PBF is refused in one line and stores nothing", async () => {
  const { db } = await snapshotReferenceData();
  const file = join(mkdtempSync(join(TMP, "osm-")), "junk.osm.pbf");
  writeFileSync(file, "not a protobuf at all");
  const result = await dataImport(db, "osm", file);
  expect(result.exitCode).toBe(1);
  expect(result.output).toMatch(/^waybill: junk\.osm\.pbf is not a usable road network: /);
  expect(result.output.split("\n")).toHaveLength(1);
  expect(db.$client.prepare("SELECT count(*) AS n FROM road_networks").get()).toEqual({ n: 0 });
});
