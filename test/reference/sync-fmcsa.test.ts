import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { dataSync } from "../../src/cli/data-sync.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { fmcsaCensusSeries } from "../../src/reference/series/series-ids.ts";
import { syncData } from "../../src/reference/sync/run.ts";
import { writeCensusFile, type ExpectedCensus } from "./census-file.ts";
import { type FakeApi, startFakeApis, syncEnv } from "./sync-server.ts";
import { defined } from "../support/defined.ts";

const NOW = Date.parse("2026-11-23T08:00:00Z");
const TMP = join(import.meta.dir, "../../.tmp/sync-fmcsa");
let api: FakeApi | undefined;
afterEach(() => api?.stop());

const censusFigures = (db: Db) =>
  (
    db.$client.prepare("SELECT count(*) AS n FROM observations WHERE series_id LIKE 'FMCSA_CENSUS_%'").get() as {
      n: number;
    }
  ).n;

/** 120,000 carriers in the published layout: three pages of at most 50,000 rows. */
let census: string[][];
let censusHeader: string[];
let expected: ExpectedCensus;
beforeAll(async () => {
  const file = join(TMP, "census.csv");
  expected = await writeCensusFile(file, { rows: 120_000, seed: 11 });
  census = Papa.parse<string[]>(readFileSync(file, "utf8"), { skipEmptyLines: true }).data;
  censusHeader = defined(census[0], "the census file's header");
}, 60_000);

describe("data sync --source fmcsa: the census from data.transportation.gov's SODA API", () => {
  test("pages of 50,000 rows of only the counted columns become the census aggregates, dated by the dataset's Last-Modified", async () => {
    api = startFakeApis({ census, censusLastModified: "Tue, 03 Nov 2026 14:05:00 GMT" });
    const db = openMemoryDatabase();
    const [outcome] = await syncData(db, {
      sources: ["fmcsa"],
      env: { ...syncEnv(api.url), WAYBILL_FMCSA_APP_TOKEN: "token-1" },
      now: NOW,
    });
    expect(outcome).toMatchObject({ source: "fmcsa", status: "added", added: 52 * 3 * 3 });
    const pages = api.requests.filter((r) => r.path === "/resource/kjg3-diqy.csv");
    expect(pages.map((r) => r.search.get("$offset"))).toEqual(["0", "50000", "100000"]);
    expect(
      pages.every(
        (r) => r.search.get("$limit") === "50000" && r.search.get("$order") === ":id" && r.appToken === "token-1",
      ),
    ).toBe(true);
    expect(defined(pages[0], "the first census page").search.get("$select")).toBe(
      "dot_number,carrier_operation,phy_state,nbr_power_unit,driver_total,mcs150_date,add_date,authorized_for_hire,exempt_for_hire",
    );

    const view = createReferenceData(db).view("2026-11-23", NOW);
    for (const [key, cell] of expected.cells) {
      const [state, operation] = key.split("_") as [string, "A" | "B" | "C"];
      expect([key, view.latest(fmcsaCensusSeries("CARRIERS", state, operation))?.value]).toEqual([key, cell.carriers]);
      expect(view.latest(fmcsaCensusSeries("POWER_UNITS", state, operation))?.value).toBe(cell.powerUnits);
      expect(view.latest(fmcsaCensusSeries("DRIVERS", state, operation))).toMatchObject({
        value: cell.drivers,
        observedOn: "2026-11-03",
      });
    }
    const stored = db.$client.prepare("SELECT source, file_name FROM data_imports").get();
    expect(stored).toEqual({ source: "fmcsa-sync", file_name: `FMCSA open-data portal: ${api.url} since 2025-10-19` });

    // A dataset not modified since the stored census is not read past its first page.
    const [again] = await syncData(db, { sources: ["fmcsa"], env: syncEnv(api.url), now: NOW + 3_600_000 });
    expect(again).toMatchObject({
      status: "unchanged",
      message:
        "fmcsa: nothing new (the census was last modified on 2026-11-03, the stored one is of 2026-11-03) [FMCSA open-data portal]",
    });
    expect(api.requests.filter((r) => r.path === "/resource/kjg3-diqy.csv")).toHaveLength(4);
  }, 60_000);

  test("an error body on a later page fails the census whole; the other sources are still stored", async () => {
    api = startFakeApis({ census, censusFailsAtOffset: 50_000 });
    const db = openMemoryDatabase();
    const result = await dataSync(db, { env: syncEnv(api.url), now: NOW });
    expect(result.exitCode).toBe(1);
    const lines = result.output.split("\n");
    expect(lines[4]).toBe(
      "fmcsa: failed, HTTP 500: Internal error while reading the dataset (internal); nothing from fmcsa was stored [FMCSA open-data portal]",
    );
    expect(lines.slice(0, 4).every((line) => / new observations as imp_/.test(line))).toBe(true);
    expect(censusFigures(db)).toBe(0);
  }, 60_000);

  test("a page that stalls mid-body times out, and a dataset without a counted column is refused with SODA's own message", async () => {
    api = startFakeApis({ census, censusStallsAtOffset: 50_000 });
    const db = openMemoryDatabase();
    const stalled = await dataSync(db, { source: "fmcsa", env: syncEnv(api.url), now: NOW, timeoutMs: 300 });
    expect(stalled).toEqual({
      exitCode: 1,
      output: "fmcsa: failed, no answer within 300 ms; nothing from fmcsa was stored [FMCSA open-data portal]",
    });
    api.stop();

    api = startFakeApis({ census: census.map((row) => row.filter((_, i) => censusHeader[i] !== "DRIVER_TOTAL")) });
    const renamed = await dataSync(db, { source: "fmcsa", env: syncEnv(api.url), now: NOW, json: true });
    expect(JSON.parse(renamed.output).sources[0]).toMatchObject({
      status: "failed",
      message:
        "fmcsa: failed, HTTP 400: No such column: driver_total (query.soql.no-such-column); nothing from fmcsa was stored [FMCSA open-data portal]",
    });
    expect(censusFigures(db)).toBe(0);
  }, 60_000);

  test("a census that is mostly garbage is refused by the importer's own checks", async () => {
    const garbage = census
      .slice(0, 2001)
      .map((row, i) =>
        i > 0 && i % 5 < 2 ? row.map((cell, c) => (censusHeader[c] === "CARRIER_OPERATION" ? "Z" : cell)) : row,
      );
    api = startFakeApis({ census: garbage });
    const db = openMemoryDatabase();
    const [outcome] = await syncData(db, { sources: ["fmcsa"], env: syncEnv(api.url), now: NOW });
    expect(outcome?.status).toBe("failed");
    expect(outcome?.message).toMatch(
      /^fmcsa: failed, 800 of 2000 rows are malformed \(40\.0%, at most 5% allowed\); first: row 1: CARRIER_OPERATION 'Z'/,
    );
    expect(censusFigures(db)).toBe(0);
  });
});
