import { afterEach, describe, expect, test } from "bun:test";
import { dataSync } from "../../src/cli/data-sync.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { DataEvents, type DataAddedEvent } from "../../src/reference/storage/data-events.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { dataStatus } from "../../src/cli/data.ts";
import {
  fmcsaCensusSeries,
  NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES,
  stateTruckDriverEmploymentSeries,
} from "../../src/reference/series/series-ids.ts";
import { syncData } from "../../src/reference/sync/run.ts";
import { type FakeApi, startFakeApis, syncEnv } from "./sync-server.ts";
import { defined } from "../support/defined.ts";

const NOW = Date.parse("2026-11-23T08:00:00Z");
const LATER = NOW + 6 * 3_600_000;
let api: FakeApi | undefined;
afterEach(() => api?.stop());

const count = (db: ReturnType<typeof openMemoryDatabase>, where = "1=1") =>
  (db.$client.prepare(`SELECT count(*) AS n FROM observations WHERE ${where}`).get() as { n: number }).n;

describe("waybill data sync against the sources' documented APIs", () => {
  test("every source answers: EIA in two pages, FRED per series, BLS in batches of 50, AMS with basic auth", async () => {
    api = startFakeApis();
    const db = openMemoryDatabase();
    const events = new DataEvents();
    const seen: DataAddedEvent[] = [];
    events.subscribe((event) => seen.push(event));
    const outcomes = await syncData(db, { env: syncEnv(api.url), now: NOW, events });
    expect(outcomes.map((o) => [o.source, o.status])).toEqual([
      ["eia", "added"],
      ["fred", "added"],
      ["bls", "added"],
      ["ams", "added"],
      ["fmcsa", "added"],
    ]);
    const eiaPages = api.requests.filter((r) => r.path === "/v2/petroleum/pri/gnd/data/");
    expect(eiaPages.map((r) => r.search.get("offset"))).toEqual(["0", "5000"]);
    expect(defined(eiaPages[0], "the first EIA page").search.getAll("facets[series][]")).toHaveLength(11);
    expect(defined(outcomes[0], "the EIA outcome").added).toBe(11 * 460);
    // FRED: "." is no value; WTI's last day is left out.
    expect(count(db, "series_id = 'DCOILWTICO'")).toBe(5);
    expect(
      api.requests.filter((r) => r.path === "/fred/series/observations").map((r) => r.search.get("series_id")),
    ).toEqual(["WPU301", "PCU336120336120", "TSIFRGHT", "DCOILWTICO", "FEDFUNDS", "INDPRO"]);
    // CES, then the OEWS wage and the OEWS employment, each national and for 51 states.
    expect(
      api.requests
        .filter((r) => r.path === "/publicAPI/v2/timeseries/data/")
        .map((r) => (r.body as { seriesid: string[] }).seriesid.length),
    ).toEqual([50, 50, 5]);
    expect(count(db, "series_id = 'CES4348400001'")).toBe(2);
    const view = createReferenceData(db).view("2026-11-23", NOW);
    expect(view.latest("AMS_FVWTRK_REEFER_HIGH_GEORGIA__ATLANTA")).toMatchObject({
      observedOn: "2026-11-17",
      value: 1300,
    });
    // OEWS May 2025 is dated by its release rule, so a view as of early 2026 does not see it.
    expect(createReferenceData(db).view("2026-03-01", NOW).latest("OEUS130000000000053303208")).toBeUndefined();
    expect(view.latest("OEUS130000000000053303208")).toMatchObject({ observedOn: "2025-05-01", value: 28.4 });
    expect(view.latest(stateTruckDriverEmploymentSeries("13"))).toMatchObject({
      observedOn: "2025-05-01",
      value: 37490,
    });
    expect(view.latest(NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES)).toMatchObject({
      observedOn: "2025-05-01",
      value: 37490,
    });
    expect(outcomes[4]).toMatchObject({ added: 52 * 3 * 3 });
    // The census's for-hire flags arrive as checkbox values: eleven of the twelve carriers count.
    expect([
      view.latest(fmcsaCensusSeries("CARRIERS", "TX", "A"))?.value,
      view.latest(fmcsaCensusSeries("CARRIERS", "OH", "C"))?.value,
    ]).toEqual([4, 3]);
    expect(view.latest(fmcsaCensusSeries("POWER_UNITS", "GA", "B"))).toMatchObject({
      value: 2 + 5 + 8 + 11,
      observedOn: "2026-11-01",
    });
    expect(seen.map((e) => e.source)).toEqual(["eia-sync", "fred-sync", "bls-sync", "ams-sync", "fmcsa-sync"]);
  });

  test("one source's error body and another's timeout fail those sources whole; the rest are stored", async () => {
    api = startFakeApis({ fredFailsOn: "DCOILWTICO", blsDelayMs: 1500 });
    const db = openMemoryDatabase();
    const result = await dataSync(db, { env: syncEnv(api.url), now: NOW, timeoutMs: 300 });
    expect(result.exitCode).toBe(1);
    const lines = result.output.split("\n");
    expect(lines[1]).toBe(
      "fred: failed, HTTP 400: Bad Request.  The series DCOILWTICO does not exist.; nothing from fred was stored [FRED API]",
    );
    expect(lines[2]).toBe("bls: failed, no answer within 300 ms; nothing from bls was stored [BLS Public Data API v2]");
    expect(lines[0]).toMatch(/^eia: 5060 new observations as imp_/);
    expect(lines[3]).toMatch(/^ams: 4 new observations/);
    // WPU301 and TSIFRGHT came back before DCOILWTICO failed: none of FRED's batch was kept.
    expect(count(db, "series_id IN ('WPU301', 'TSIFRGHT', 'CES4348400001')")).toBe(0);
  });

  test("a revised value is added as a newer version; views known before it keep the old one", async () => {
    api = startFakeApis();
    const db = openMemoryDatabase();
    await syncData(db, { sources: ["eia"], env: syncEnv(api.url), now: NOW });
    api.stop();
    api = startFakeApis({ revised: new Map([["EMD_EPD2D_PTE_NUS_DPG|2026-09-21", 3.999]]) });
    const [again] = await syncData(db, { sources: ["eia"], env: syncEnv(api.url), now: LATER });
    expect(again).toMatchObject({ status: "added", added: 1, skipped: 11 * 460 - 1 });
    const data = createReferenceData(db);
    expect(data.view("2026-09-21", LATER).latest("EMD_EPD2D_PTE_NUS_DPG")?.value).toBe(3.999);
    expect(data.view("2026-09-21", NOW).latest("EMD_EPD2D_PTE_NUS_DPG")?.value).not.toBe(3.999);
    expect(count(db, "series_id = 'EMD_EPD2D_PTE_NUS_DPG' AND observed_on = '2026-09-21'")).toBe(2);
  });

  test("without keys every source reads its keyless publication, names it, and stores the same series", async () => {
    api = startFakeApis();
    const db = openMemoryDatabase();
    const none = await dataSync(db, { env: syncEnv(api.url, false), now: NOW });
    expect(none.exitCode).toBe(0);
    expect(none.output.split("\n")).toEqual([
      expect.stringMatching(
        /^eia: 5060 new observations as imp_\w+ \(0 already stored\) \[EIA weekly diesel workbook \(no key\)\]$/,
      ),
      expect.stringMatching(/^fred: \d+ new observations .* \[FRED graph CSV \(no key\)\]$/),
      expect.stringMatching(/^bls: 106 new observations .* \[BLS Public Data API v1 \(no key\)\]$/),
      expect.stringMatching(/^ams: 6 new observations .* \[USDA AgTransport truck rates \(no key\)\]$/),
      expect.stringMatching(/^fmcsa: 468 new observations as imp_.*\[FMCSA open-data portal\]$/),
    ]);
    const paths = api.requests.map((r) => r.path);
    expect(paths).toContain("/petroleum/gasdiesel/xls/psw18vwall.xls");
    expect(paths.filter((p) => p === "/graph/fredgraph.csv")).toHaveLength(6);
    // API v1 takes at most 25 series a request and no registration key.
    const v1 = api.requests.filter((r) => r.path === "/publicAPI/v1/timeseries/data/");
    expect(v1.map((r) => (r.body as { seriesid: string[] }).seriesid.length)).toEqual([25, 25, 25, 25, 5]);
    expect(v1.every((r) => !("registrationkey" in (r.body as object)))).toBe(true);
    expect(paths.some((p) => p.startsWith("/v2/") || p.startsWith("/fred/") || p.includes("/v2/timeseries"))).toBe(
      false,
    );
    // The keyed and the keyless paths store the same figures under the same series.
    const view = createReferenceData(db).view("2026-11-23", NOW);
    expect(view.latest("EMD_EPD2D_PTE_R5XCA_DPG")).toMatchObject({ observedOn: "2026-11-16", value: 3.959 });
    expect(view.latest("AMS_FVWTRK_REEFER_HIGH_GEORGIA__ATLANTA")).toMatchObject({
      observedOn: "2026-11-17",
      value: 1300,
    });
    expect(view.latest("WPU301")).toMatchObject({ observedOn: "2026-08-01", value: 176.5 });
    expect(view.latest("OEUS130000000000053303208")).toMatchObject({ value: 28.4 });
    const keyed = openMemoryDatabase();
    await syncData(keyed, { sources: ["eia"], env: syncEnv(api.url), now: NOW });
    expect(count(keyed, "series_id LIKE 'EMD_%'")).toBe(count(db, "series_id LIKE 'EMD_%'"));
  });

  test("a keyless source's failure is one line naming what it read; --since is passed to every API", async () => {
    api = startFakeApis({ fredFailsOn: "INDPRO" });
    const db = openMemoryDatabase();
    const fred = await dataSync(db, { source: "fred", env: syncEnv(api.url, false), now: NOW });
    expect(fred.exitCode).toBe(1);
    expect(fred.output).toBe("fred: failed, HTTP 404; nothing from fred was stored [FRED graph CSV (no key)]");
    api.stop();
    api = startFakeApis();
    await dataSync(db, { source: "fred", since: "2026-03-01", env: syncEnv(api.url), now: NOW, json: true });
    expect(api.requests.every((r) => r.search.get("observation_start") === "2026-03-01")).toBe(true);
    await dataSync(db, { source: "fred", since: "2026-03-01", env: syncEnv(api.url, false), now: NOW });
    expect(
      api.requests.filter((r) => r.path === "/graph/fredgraph.csv").every((r) => r.search.get("cosd") === "2026-03-01"),
    ).toBe(true);
    expect(dataSync(db, { source: "nope", env: {}, now: NOW })).rejects.toThrow(/unknown source 'nope'/);
  });
  test("the heavy-truck PPI comes from FRED's recorded answer from --since on, dated by BLS's release rule, and data status lists it", async () => {
    api = startFakeApis();
    const db = openMemoryDatabase();
    // The recorded answer ends 2025-08; the default 400 days back (2025-10-19) asks for it and gets nothing.
    await syncData(db, { sources: ["fred"], env: syncEnv(api.url), now: NOW });
    expect(count(db, "series_id = 'PCU336120336120'")).toBe(0);

    const [fred] = await syncData(db, { sources: ["fred"], since: "2025-03-01", env: syncEnv(api.url), now: LATER });
    expect(fred).toMatchObject({ status: "added", added: 6 });
    const data = createReferenceData(db);
    // August's index is public on 2025-09-15, so a view of the day before carries equipment cost by July's.
    expect(data.view("2025-09-14", LATER).latest("PCU336120336120")).toMatchObject({
      observedOn: "2025-07-01",
      value: 165.465,
    });
    expect(data.view("2025-09-15", LATER).latest("PCU336120336120")).toMatchObject({
      observedOn: "2025-08-01",
      value: 165.515,
      publishedOn: "2025-09-15",
    });

    const status = JSON.parse((await dataStatus(db, { json: true, now: LATER })).output) as {
      series: { series_id: string }[];
    };
    expect(status.series.find((s) => s.series_id === "PCU336120336120")).toMatchObject({
      unit: "index Dec 1984=100",
      cadence: "monthly",
      first: "2025-03-01",
      latest: "2025-08-01",
      published_on: "2025-09-15",
      next_due: "2025-10-15",
      overdue: true,
      observations: 6,
    });
  });
});
