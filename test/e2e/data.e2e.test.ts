import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeApi, startFakeApis, syncEnv } from "../reference/sync-server.ts";
import { haveOsmium, osmExtract } from "../support/osm-extract.ts";
import { binaryInEmptyFolder, startBinary } from "../support/binary.ts";

let dir: string;
let exe: string;
let api: FakeApi;
beforeAll(async () => {
  ({ dir, exe } = await binaryInEmptyFolder());
  api = startFakeApis({ lastMonday: "2026-11-16" });
}, 240_000);
afterAll(() => {
  api.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One CLI command, run without blocking this process (the fake APIs answer from it). */
async function cli(args: string[], env: Record<string, string | undefined> = {}, db = "./data.db") {
  const child = Bun.spawn([exe, ...args, "--db", db], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout, stderr };
}

describe("data commands of the compiled binary", () => {
  test("import the FVWTRK table as published, refuse a bad file whole, retract an import, and see it all in status", async () => {
    const table = join(dir, "fvwtrk.csv");
    writeFileSync(
      table,
      "report_date,origin_district,destination,rate_low_usd_per_load,rate_high_usd_per_load\n2026-07-28,GEORGIA,Atlanta,700,1300\n",
    );
    const imported = await cli(["data", "import", "ams", table, "--json"]);
    expect(imported.exitCode).toBe(0);
    const { import_id: importId, added } = JSON.parse(imported.stdout);
    expect(added).toBe(2); // low and high end; the CLI alone loads no snapshot into a fresh database

    writeFileSync(
      table,
      "report_date,origin_district,destination,rate_low_usd_per_load,rate_high_usd_per_load\n2026-07-28,GEORGIA,Atlanta,0x10,1300\n",
    );
    const refused = await cli(["data", "import", "ams", table]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    // A range no report prints (low under half the high) is a misprint, refused with its line.
    writeFileSync(
      table,
      "report_date,origin_district,destination,rate_low_usd_per_load,rate_high_usd_per_load\n2026-07-21,GEORGIA,Atlanta,740,8600\n",
    );
    const misprint = await cli(["data", "import", "ams", table]);
    expect(misprint.exitCode).toBe(1);
    expect(misprint.stderr).toContain("line 2: rate range 740-8600 is not one the report prints");

    expect((await cli(["data", "retract", importId])).exitCode).toBe(2); // --reason is required
    const retracted = await cli(["data", "retract", importId, "--reason", "keyed from the wrong report"]);
    expect(retracted.exitCode).toBe(0);

    const status = JSON.parse((await cli(["data", "status", "--json"])).stdout);
    const lane = status.series.find(
      (s: { series_id: string }) => s.series_id === "AMS_FVWTRK_REEFER_LOW_GEORGIA__ATLANTA",
    );
    expect(lane).toMatchObject({ cadence: "weekly", latest: "2026-07-28", published_on: "2026-07-28", overdue: true });
    expect(status.imports.find((i: { id: string }) => i.id === importId).retracted.reason).toBe(
      "keyed from the wrong report",
    );
  }, 60_000);

  test("data sync against the sources' formats, keyless by default, and serve syncs on its own and exports data age", async () => {
    // From 2024-09 on, so the heavy-truck PPI's recorded answer (to 2025-08) comes in with the other FRED series.
    const synced = await cli(["data", "sync", "--source", "fred", "--since", "2024-09-01"], syncEnv(api.url));
    expect(synced.exitCode).toBe(0);
    expect(synced.stdout).toMatch(/^fred: \d+ new observations as imp_/);
    const statusText = (await cli(["data", "status"])).stdout.split("\n");
    expect(statusText.find((line) => line.startsWith("PCU336120336120 "))).toMatch(
      /^PCU336120336120\s+2025-08-01\s+2025-09-15\s+\d+ d\s+monthly\s+OVERDUE\s+12 obs\s+BLS PPI by industry, heavy duty truck manufacturing$/,
    );
    const noKey = await cli(["data", "sync", "--source", "eia"], syncEnv(api.url, false));
    expect(noKey.stdout.trim()).toMatch(
      /^eia: 5060 new observations as imp_\w+ .*\[EIA weekly diesel workbook \(no key\)\]$/,
    );
    // FMCSA's census needs no key: read from the portal's CSV pages into carrier-capacity's aggregates.
    const census = await cli(["data", "sync", "--source", "fmcsa", "--json"], syncEnv(api.url, false));
    expect(census.exitCode).toBe(0);
    expect(JSON.parse(census.stdout).sources).toEqual([
      expect.objectContaining({ source: "fmcsa", status: "added", added: 468 }),
    ]);
    const status = await cli(["data", "status", "--json"]);
    expect(status.stdout).toContain("FMCSA_CENSUS_CARRIERS_TX_A");

    // No --sync-every and no keys: the server syncs by itself from the keyless publications.
    const server = await startBinary(exe, ["--db", "./data.db"], {
      cwd: dir,
      env: { ...(syncEnv(api.url, false) as Record<string, string>), WAYBILL_OFFLINE: "0" },
    });
    const deadline = Date.now() + 20_000;
    while (!server.output().includes("data sync fmcsa:") && Date.now() < deadline) await Bun.sleep(100);
    expect(server.output()).toMatch(/data sync eia: nothing new \(5060 already stored\) \[EIA weekly diesel workbook/);
    expect(server.output()).toMatch(/data sync ams: 6 new observations .*\[USDA AgTransport truck rates \(no key\)\]/);
    // The scheduled sync asks FMCSA too; the census stored above is as new as the portal's.
    expect(server.output()).toContain(
      "data sync fmcsa: nothing new (the census was last modified on 2026-11-01, the stored one is of 2026-11-01) [FMCSA open-data portal]",
    );
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/waybill_reference_data_age_seconds\{series="EMD_EPD2D_PTE_NUS_DPG"\} \d+/);
    expect(metrics).toContain(
      'waybill_reference_data_overdue{series="AMS_FVWTRK_REEFER_LOW_GEORGIA__ATLANTA",family="USDA AMS reefer truck rates"}',
    );
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 90_000);

  test("a server without internet logs one line per source, keeps answering, and --offline does not sync", async () => {
    const unreachable = "http://127.0.0.1:9"; // the discard port: nothing listens, the connection is refused
    const server = await startBinary(exe, ["--db", "./offline.db"], {
      cwd: dir,
      env: { ...(syncEnv(unreachable, false) as Record<string, string>), WAYBILL_OFFLINE: "0" },
    });
    const deadline = Date.now() + 20_000;
    while ((server.output().match(/^data sync /gm) ?? []).length < 5 && Date.now() < deadline) await Bun.sleep(100);
    await Bun.sleep(500);
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("data sync "));
    expect(lines.map((line) => line.split(":")[0])).toEqual([
      "data sync eia",
      "data sync fred",
      "data sync bls",
      "data sync ams",
      "data sync fmcsa",
    ]);
    for (const line of lines)
      expect(line).toMatch(
        /failed, request failed: .*; answering from the figures already stored, trying again at \S+Z/,
      );
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await server.stop("SIGTERM")).toBe(0);

    const offline = await startBinary(exe, ["--db", "./offline.db", "--offline"], {
      cwd: dir,
      env: { ...(syncEnv(unreachable, false) as Record<string, string>), WAYBILL_OFFLINE: "0" },
    });
    expect(offline.output()).toContain("offline: no data sync");
    await Bun.sleep(6_000);
    expect(offline.output()).not.toMatch(/^data sync /m);
    expect(await offline.stop("SIGTERM")).toBe(0);
  }, 90_000);

  test("data import ams reads the report's own column layout: availability, the mostly range, commodity lists, season notes", async () => {
    const report = join(import.meta.dir, "../fixtures/ams_fvwtrk_report.csv");
    const published = (args: string[]) => cli(args, {}, "./published.db"); // a database of its own: the others hold these weeks already
    const imported = await published(["data", "import", "ams", report, "--json"]);
    expect(imported.exitCode).toBe(0);
    // Fresno-area lane printed in two commodity blocks: one envelope (2 figures); Georgia and Yakima 2 each; FIRST REPORT is no district.
    expect(JSON.parse(imported.stdout).added).toBe(6);
    const status = JSON.parse((await published(["data", "status", "--json"])).stdout);
    const lane = status.series.find(
      (s: { series_id: string }) =>
        s.series_id === "AMS_FVWTRK_REEFER_HIGH_SOUTH-AND-CENTRAL-DISTRICT-CALIFORNIA__CHICAGO",
    );
    expect(lane).toMatchObject({ latest: "2026-06-30", published_on: "2026-06-30" });
    expect(status.series.some((s: { series_id: string }) => s.series_id.includes("FIRST-REPORT"))).toBe(false);
  }, 60_000);
});

describe.skipIf(!haveOsmium)("an OpenStreetMap extract through the compiled binary", () => {
  test("data import osm stages the extract's truck roads with its checks; promotion is refused while they fail", async () => {
    const pbf = osmExtract([
      {
        highway: "motorway",
        points: [
          [-87.65, 41.85],
          [-90.2, 38.63],
        ],
      },
      {
        highway: "residential",
        points: [
          [-90.2, 38.63],
          [-96.8, 32.78],
        ],
      },
    ]);
    const staged = await cli(["data", "import", "osm", pbf, "--json"], {}, "./osm.db");
    expect(staged.exitCode).toBe(0);
    const { network, features, report } = JSON.parse(staged.stdout) as {
      network: string;
      features: number;
      report: { passed: boolean };
    };
    expect([features, report.passed]).toEqual([1, false]);
    const promote = await cli(["data", "roads", "promote", network], {}, "./osm.db");
    expect(promote.exitCode).toBe(1);
    expect(promote.stderr).toContain(`road network '${network}' failed its checks and cannot price lanes`);
  }, 60_000);
});
