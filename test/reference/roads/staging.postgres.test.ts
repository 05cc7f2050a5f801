import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dataImport, dataRetract } from "../../../src/cli/data.ts";
import { roadsPromote } from "../../../src/cli/data-roads.ts";
import { openStore } from "../../../src/db/open.ts";
import { createRoadNetworks, embeddedRoadNetwork } from "../../../src/reference/roads/index.ts";
import { usePostgres } from "../../support/postgres.ts";
import { embeddedNetworkAsGeoJson } from "../../support/road-geojson.ts";

const postgres = usePostgres();
const TMP = resolve(import.meta.dir, "../../../.tmp");
mkdirSync(TMP, { recursive: true });

test("on PostgreSQL a staged network prices nothing, a promoted one does, a retracted one stops", async () => {
  const { store, close } = await openStore({ dialect: "postgres", url: await postgres.freshDatabase() });
  try {
    const file = join(TMP, `waybill-pg-roads-${process.pid}.geojson`);
    writeFileSync(file, JSON.stringify(embeddedNetworkAsGeoJson()));
    const t0 = Date.parse("2026-11-23T08:00:00Z");
    const { network } = JSON.parse((await dataImport(store, "roads", file, { json: true, now: t0 })).output) as {
      network: string;
    };
    const roads = createRoadNetworks(store);
    await roads.reload();
    expect(roads.knownAt(t0 + 1).version).toBe(embeddedRoadNetwork().version);
    expect((await roadsPromote(store, network, { now: t0 + 10 })).exitCode).toBe(0);
    expect((await dataRetract(store, network, "replaced", { now: t0 + 20 })).exitCode).toBe(0);
    await roads.reload();
    expect([t0 + 9, t0 + 10, t0 + 19, t0 + 20].map((at) => roads.knownAt(at).version)).toEqual([
      embeddedRoadNetwork().version,
      network,
      network,
      embeddedRoadNetwork().version,
    ]);
  } finally {
    await close();
  }
}, 120_000);
