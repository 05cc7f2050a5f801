import { describe, expect, test } from "bun:test";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataImport, dataStatus } from "../../src/cli/data.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { fixture, LOADED_AT, snapshotReferenceData } from "./helpers.ts";
import { snapshotImportId } from "../../src/reference/snapshot/index.ts";
import { eiaDieselWorkbook } from "./sync-server.ts";
import { defined } from "../support/defined.ts";

const NOW = Date.parse("2026-11-23T08:00:00Z");
const count = (db: ReturnType<typeof openMemoryDatabase>, table: string) =>
  (db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

function tempFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "waybill-import-")), name);
  writeFileSync(path, content);
  return path;
}

describe("official file formats", () => {
  test.each([
    ["eia", "eia_weekly_diesel_us.csv", 4, "EMD_EPD2D_PTE_NUS_DPG", "2026-10-05", 6.199],
    ["eia", "eia_api_v2_diesel_padd.json", 4, "EMD_EPD2D_PTE_R30_DPG", "2026-09-21", 6.177],
    ["fred", "fred_wpu301.csv", 4, "WPU301", "2025-12-01", 175.023],
    ["bls", "bls_timeseries_truck.txt", 4, "OEUS170000000000053303208", "2024-05-01", 28.75],
  ] as const)("%s %s into an empty database", async (source, file, added, seriesId, date, value) => {
    const db = openMemoryDatabase();
    const result = await dataImport(db, source, fixture(file), { json: true, now: NOW });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.output)).toMatchObject({ added, skipped: 0 });
    const latest = defined(createReferenceData(db).view("2026-11-23", NOW).latest(seriesId), `${seriesId}'s latest`);
    expect(latest).toMatchObject({ observedOn: date, value });
    expect(latest.importId).toMatch(/^imp_[0-9A-Z]{26}$/);
  });

  test("BLS monthly periods become month dates; annual averages (M13) are left out", async () => {
    const db = openMemoryDatabase();
    await dataImport(db, "bls", fixture("bls_timeseries_truck.txt"), { now: NOW });
    const months = createReferenceData(db).view("2026-12-31", NOW).history("CES4348400001");
    expect(months.map((o) => [o.observedOn, o.value])).toEqual([
      ["2026-05-01", 1467.7],
      ["2026-06-01", 1465],
      ["2026-07-01", 1465.1],
    ]);
  });

  test("the same figures the snapshot already holds are skipped and counted", async () => {
    const { db } = await snapshotReferenceData();
    const before = count(db, "observations");
    for (const [source, file] of [
      ["eia", "eia_weekly_diesel_us.csv"],
      ["fred", "fred_wpu301.csv"],
      ["eia", "eia_api_v2_diesel_padd.json"],
    ] as const) {
      const result = JSON.parse((await dataImport(db, source, fixture(file), { json: true, now: NOW })).output);
      expect(result).toMatchObject({ added: 0, skipped: 4, import_id: null });
    }
    expect(count(db, "observations")).toBe(before);
    expect(count(db, "data_imports")).toBe(1);
  });

  test("re-importing a file adds nothing", async () => {
    const db = openMemoryDatabase();
    expect((await dataImport(db, "ams", fixture("ams_mymarketnews_reefer.json"), { now: NOW })).output).toContain(
      "imported 8 new",
    );
    const again = await dataImport(db, "ams", fixture("ams_mymarketnews_reefer.json"), { now: NOW + 1000 });
    expect(again).toEqual({ exitCode: 0, output: expect.stringContaining("all 8 observations are already stored") });
    expect(count(db, "observations")).toBe(8);
  });

  test("a revised value is added beside the old one; old views keep the old value", async () => {
    const { db, data } = await snapshotReferenceData();
    const revised = tempFile("revised.csv", "observation_date,WPU301\n2025-12-01,176.5\n");
    expect(JSON.parse((await dataImport(db, "fred", revised, { json: true, now: NOW })).output)).toMatchObject({
      added: 1,
      skipped: 0,
    });
    expect(data.view("2026-01-15", NOW).latest("WPU301")?.value).toBe(176.5);
    expect(data.view("2026-01-15", LOADED_AT).latest("WPU301")?.value).toBe(175.023);
    // December's PPI is published on January 15: a view as of the day before does not see it.
    expect(data.view("2026-01-14", NOW).latest("WPU301")?.observedOn).toBe("2025-11-01");
  });

  test.each(["ams_mymarketnews_reefer.json", "ams_fvwtrk_report.csv"])(
    "USDA AMS FVWTRK %s: low and high $/load per district and destination, by report date",
    async (file) => {
      const db = openMemoryDatabase();
      expect((await dataImport(db, "ams", fixture(file), { now: NOW })).exitCode).toBe(0);
      const view = createReferenceData(db).view("2026-09-30", NOW);
      const yakima = "YAKIMA-VALLEY-AND-WENATCHEE-DISTRICT-WASHINGTON__SEATTLE";
      expect(view.latest(`AMS_FVWTRK_REEFER_LOW_${yakima}`)).toMatchObject({
        observedOn: "2026-07-28",
        value: 900,
        publishedOn: "2026-07-28",
      });
      expect(view.latest(`AMS_FVWTRK_REEFER_HIGH_${yakima}`)?.value).toBe(1200);
      // One lane in two commodity blocks: the envelope of both ranges.
      expect(view.latest("AMS_FVWTRK_REEFER_LOW_SOUTH-AND-CENTRAL-DISTRICT-CALIFORNIA__CHICAGO")?.value).toBe(6200);
      expect(view.latest("AMS_FVWTRK_REEFER_HIGH_SOUTH-AND-CENTRAL-DISTRICT-CALIFORNIA__CHICAGO")?.value).toBe(7400);
      // A season note printed where a district belongs is not a district.
      expect(view.seriesIds("AMS_").some((id) => id.includes("FIRST-REPORT"))).toBe(false);
    },
  );
});

describe("monthly trade tables (Cass, ATA, FTR's FMCSA counts) as the releases print them", () => {
  test.each([
    [
      "cass",
      "month,shipments_index,expenditures_index,truckload_linehaul_index,source_id\n2025-11,1.004,3.163,142.2,CASS_2025_11\n2026-01,0.886,2.990,146.0,CASS_2026_01\n",
      "CASS_TL_LINEHAUL_INDEX",
      { observedOn: "2026-01-01", value: 146, publishedOn: "2026-02-15" },
    ],
    [
      "ata",
      "month,tonnage_index_sa_2015eq100,tonnage_index_nsa_2015eq100,source_id\n2025-06,113.0,114.6,TT_2025_08_20\n",
      "ATA_TONNAGE_SA",
      // Revised in the July release, dated 2025-08-20: that is when this figure became public.
      { observedOn: "2025-06-01", value: 113, publishedOn: "2025-08-20" },
    ],
    [
      "fmcsa-authority",
      "month,new_forhire_authorities,net_revocations,net_change_carrier_population,source_id\n2025-12,4140,6427,-2287,FTR_TMU_2026_01_05\n2025-10,,4870,132,RYAN_2025_11\n",
      "FMCSA_NET_CHANGE_CARRIERS",
      { observedOn: "2025-12-01", value: -2287, publishedOn: "2026-01-10" },
    ],
    [
      "fmcsa-new-carriers",
      'month,state_abbr,state_name,count,measure,source_id\n2022-06,TX,Texas,1703,"new carriers (new USDOT registrations)",BLUEINK_2022_06\n2025-05,TX,Texas,900,new motor carrier (MC) operating authorities granted,SEARCHCARRIERS_2025_05\n',
      "FMCSA_NEW_CARRIERS_TX",
      { observedOn: "2022-06-01", value: 1703, publishedOn: "2022-07-10" },
    ],
  ] as const)("%s", async (source, content, seriesId, expected) => {
    const db = openMemoryDatabase();
    const result = await dataImport(db, source, tempFile(`${source}.csv`, content), { json: true, now: NOW });
    expect(result.exitCode).toBe(0);
    expect(createReferenceData(db).view("2026-11-23", NOW).latest(seriesId)).toMatchObject(expected);
  });

  test("new MC authorities by state are a different measure from new USDOT registrations", async () => {
    const db = openMemoryDatabase();
    const file = tempFile(
      "states.csv",
      "month,state_abbr,count,measure\n2025-05,TX,900,new motor carrier (MC) operating authorities granted\n",
    );
    expect((await dataImport(db, "fmcsa-new-carriers", file, { now: NOW })).exitCode).toBe(0);
    const view = createReferenceData(db).view("2026-11-23", NOW);
    expect(view.latest("FMCSA_NEW_AUTHORITIES_TX")?.value).toBe(900);
    expect(view.latest("FMCSA_NEW_CARRIERS_TX")).toBeUndefined();
  });
});

describe("bad files are refused whole, with one line", () => {
  const cases: [string, string, string, RegExp][] = [
    ["fred", "wrong-header.csv", "date;value\n2025-01-01;3\n", /observation_date/],
    [
      "fred",
      "bad-value.csv",
      "observation_date,WPU301\n2025-01-01,170\n2025-02-01,abc\n",
      /line 3: 'abc' is not a decimal number/,
    ],
    ["eia", "no-id.csv", '"Week of","Price"\n"09/14/2026","6.285"\n', /no EMD_\.\.\._DPG id/],
    ["eia", "broken.json", "{ not json", /not valid JSON/],
    ["bls", "bad-header.txt", "id year value\n", /series_id year period value/],
    ["ams", "no-results.json", '{"data": 1}', /no 'results' array/],
    [
      "ams",
      "misprint.csv",
      "report_date,origin_district,destination,rate_low_usd_per_load,rate_high_usd_per_load\n2026-07-21,SOUTH AND CENTRAL DISTRICT CALIFORNIA,Atlanta,740,8600\n",
      /line 2: rate range 740-8600 is not one the report prints \(low under half the high/,
    ],
    [
      "ams",
      "no-date.json",
      '{"results":[{"district":"GEORGIA","destination":"Atlanta","low_price":"1000","high_price":"1200"}]}',
      /report date '' is not a date/,
    ],
    [
      "eia",
      "null-row.json",
      '{"response":{"data":[{"series":"EMD_EPD2D_PTE_NUS_DPG","period":"2026-09-21","value":"6.1"},null]}}',
      /^waybill: null-row\.json is not a valid EIA file: response\.data\[1\] is null, not a row object$/,
    ],
    ["eia", "number-row.json", '{"response":{"data":[7]}}', /response\.data\[0\] is a number, not a row object/],
    ["eia", "null-response.json", '{"response":null}', /no response\.data array/],
    [
      "ams",
      "null-row.json",
      '{"results":[null,{"district":"GEORGIA","destination":"Atlanta","report_date":"2026-07-21","low_price":"1000","high_price":"1200"}]}',
      /^waybill: null-row\.json is not a valid AMS file: results\[0\] is null, not a row object$/,
    ],
    ["ams", "bare-array-row.json", "[[1,2]]", /array\[0\] is an array, not a row object/],
    ["ams", "null-results.json", '{"results":null}', /no 'results' array/],
  ];
  test.each(cases)("%s %s", async (source, name, content, message) => {
    const { db } = await snapshotReferenceData();
    const before = count(db, "observations");
    const result = await dataImport(db, source, tempFile(name, content), { now: NOW });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(message);
    expect(result.output.split("\n")).toHaveLength(1);
    expect(count(db, "observations")).toBe(before);
    expect(count(db, "data_imports")).toBe(1);
  });

  test("a file whose last row is bad writes none of its good rows", async () => {
    const db = openMemoryDatabase();
    const file = tempFile("half.csv", "observation_date,TSIFRGHT\n2025-12-01,139.0\n2026-01-01,140.1\nnot-a-date,1\n");
    expect((await dataImport(db, "fred", file, { now: NOW })).exitCode).toBe(1);
    expect(count(db, "observations")).toBe(0);
  });

  test("unknown source and unreadable file", async () => {
    const db = openMemoryDatabase();
    expect(await dataImport(db, "fmcsa", "x.csv")).toEqual({
      exitCode: 2,
      output:
        "waybill: unknown source 'fmcsa'; use one of eia, fred, bls, ams, fhwa, cass, ata, fmcsa-authority, fmcsa-new-carriers, roads, osm",
    });
    expect(await dataImport(db, "eia", "/nonexistent/file.csv")).toEqual({
      exitCode: 1,
      output: "waybill: cannot read /nonexistent/file.csv: ENOENT",
    });
  });
});

describe("imports that scale", () => {
  test("a BLS flat file keeps only the series the product uses; progress goes out as JSON lines", async () => {
    const db = openMemoryDatabase();
    const rows = ["series_id\tyear\tperiod\tvalue\tfootnote_codes"];
    for (let i = 0; i < 2000; i++) rows.push(`CEU${String(i).padStart(10, "0")}\t2025\tM01\t${i}.5\t`);
    rows.push("CES4348400001\t2025\tM01\t1470.1\t");
    const progress: string[] = [];
    const result = await dataImport(db, "bls", tempFile("ce.data.0.AllCESSeries", `${rows.join("\n")}\n`), {
      json: true,
      now: NOW,
      progress: { isTTY: false, write: (text) => progress.push(text) },
    });
    expect(JSON.parse(result.output)).toMatchObject({ added: 1 });
    expect(count(db, "observations")).toBe(1);
    expect(progress.length).toBeGreaterThan(0);
    expect(JSON.parse(defined(progress.at(-1), "the last progress line"))).toMatchObject({
      progress: { percent: 100 },
    });
  });

  test("a file over the size limit is refused before it is read", async () => {
    const db = openMemoryDatabase();
    const big = tempFile("big.csv", `observation_date,WPU301\n${"2025-01-01,170\n".repeat(100_000)}`);
    const result = await dataImport(db, "fred", big, { now: NOW, maxMb: 1 });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/over the import limit of 1048576 bytes/);
    expect(count(db, "observations")).toBe(0);
  });

  test("hex, exponents, impossible values, future and pre-series dates and conflicting duplicates are refused with their row", async () => {
    const cases: [string, string, RegExp][] = [
      ["observation_date,WPU301\n2025-01-01,0x10\n", "fred", /line 2: '0x10' is not a decimal number/],
      ["observation_date,WPU301\n2025-01-01,1e300\n", "fred", /line 2: '1e300' is not a decimal number/],
      [
        '"Week of","EMD_EPD2D_PTE_NUS_DPG"\n09/14/2026,-4.5\n',
        "eia",
        /line 2: EMD_EPD2D_PTE_NUS_DPG 2026-09-14 = -4.5 is outside 0.5..10 USD\/gal/,
      ],
      ["observation_date,WPU301\n2027-01-01,170\n", "fred", /2027-01-01 = 170 is dated in the future/],
      ["observation_date,WPU301\n2001-01-01,120\n", "fred", /dated before the series began \(2009-06-01\)/],
      [
        "observation_date,WPU301\n2025-01-01,170\n2025-01-01,171\n",
        "fred",
        /line 3: WPU301 2025-01-01 = 171 conflicts with line 2 \(170\)/,
      ],
      [
        "report_date,origin_district,destination,rate_low_usd_per_load,rate_high_usd_per_load\n2026-07-28,GEORGIA,Atlanta,-300,1200\n",
        "ams",
        /'-300'-'1200'|outside 100..30000/,
      ],
    ];
    for (const [content, source, message] of cases) {
      const db = openMemoryDatabase();
      const before = count(db, "observations");
      const result = await dataImport(db, source, tempFile("bad.csv", content), { now: NOW });
      expect(result.exitCode).toBe(1);
      expect(result.output).toMatch(message);
      expect(count(db, "observations")).toBe(before);
    }
  });
});

describe("data status", () => {
  test("lists every series with its newest observation and age", async () => {
    const { db } = await snapshotReferenceData();
    const status = JSON.parse((await dataStatus(db, { json: true, now: NOW })).output);
    const nus = status.series.find((s: { series_id: string }) => s.series_id === "EMD_EPD2D_PTE_NUS_DPG");
    expect(nus).toMatchObject({
      latest: "2026-10-05",
      latest_value: 6.199,
      published_on: "2026-10-05",
      age_days: 49,
      observations: 1699,
    });
    // Weekly: the 2026-10-12 figure was due that day; five days' grace have long passed.
    expect(nus).toMatchObject({ cadence: "weekly", next_due: "2026-10-12", overdue: true });
    // A tax rate changes when a law does: never overdue.
    const excise = status.series.find((s: { series_id: string }) => s.series_id === "FHWA_MF121T_DIESEL_CA");
    expect(excise).toMatchObject({ cadence: "irregular", next_due: null, overdue: false });
    expect(status.imports).toEqual([expect.objectContaining({ id: snapshotImportId(), source: "snapshot" })]);
    const text = (await dataStatus(db, { now: NOW })).output;
    expect(text).toContain("EMD_EPD2D_PTE_NUS_DPG");
    expect(text).toContain(snapshotImportId());
  });
});

describe("EIA's weekly history workbook (.xls)", () => {
  const weeks = ["2026-11-02", "2026-11-09", "2026-11-16"];
  const rows = weeks.flatMap((period, w) => [
    { period, series: "EMD_EPD2D_PTE_NUS_DPG", value: String(3.7 + w / 100) },
    { period, series: "EMD_EPD2D_PTE_R1Y_DPG", value: String(3.9 + w / 100) },
  ]);

  test("data import eia reads every diesel column of the Data sheets by its Sourcekey", async () => {
    const db = openMemoryDatabase();
    const path = join(mkdtempSync(join(tmpdir(), "waybill-import-")), "psw18vwall.xls");
    writeFileSync(path, eiaDieselWorkbook(rows));
    const result = await dataImport(db, "eia", path, { now: NOW });
    expect(result.exitCode).toBe(0);
    const view = createReferenceData(db).view("2026-11-23", NOW);
    expect(view.latest("EMD_EPD2D_PTE_R1Y_DPG")).toMatchObject({ observedOn: "2026-11-16", value: 3.92 });
    expect(count(db, "observations")).toBe(6);
  });

  test("a workbook with a bad price is refused whole, naming its sheet and row", async () => {
    const db = openMemoryDatabase();
    const path = join(mkdtempSync(join(tmpdir(), "waybill-import-")), "bad.xls");
    writeFileSync(
      path,
      eiaDieselWorkbook([...rows, { period: "2026-11-23", series: "EMD_EPD2D_PTE_NUS_DPG", value: "n/a" }]),
    );
    const result = await dataImport(db, "eia", path, { now: NOW });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/sheet 'Data 1' row 7: 'n\/a' is not a decimal number/);
    expect(count(db, "observations")).toBe(0);
  });
});
