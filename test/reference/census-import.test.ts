import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dataImportCensus } from "../../src/cli/census.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { censusDate, snapshotDateFromFileName } from "../../src/reference/importers/fmcsa-census.ts";
import { fmcsaCensusSeries } from "../../src/reference/series/series-ids.ts";
import { CENSUS_HEADER, writeCensusFile, type ExpectedCensus } from "./census-file.ts";
import { defined } from "../support/defined.ts";

const TMP = join(import.meta.dir, "../../.tmp/census-import");
const NOW = Date.parse("2026-11-23T08:00:00Z");
const count = (db: Db, table: string) =>
  (db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** Collects what the importer writes as progress, like stderr would receive it. */
function progressSink() {
  const lines: string[] = [];
  const stream = { isTTY: false, write: (text: string) => void lines.push(text) };
  return { stream, lines };
}

describe("FMCSA census import, 200,000 rows in the published layout", () => {
  const file = join(TMP, "FMCSA_CENSUS1_2026Oct.txt");
  let expected: ExpectedCensus;
  let db: Db;
  let output: Record<string, unknown>;
  let progressLines: string[];

  beforeAll(async () => {
    expected = await writeCensusFile(file, { rows: 200_000, malformedEvery: 1000 });
    db = openMemoryDatabase();
    const sink = progressSink();
    const result = await dataImportCensus(db, file, { json: true, now: NOW, progress: sink.stream });
    expect(result.exitCode).toBe(0);
    output = JSON.parse(result.output);
    progressLines = sink.lines;
  }, 120_000);

  test("every state × operation count equals the one computed while writing the file", async () => {
    const view = createReferenceData(db).view("2026-11-23", NOW);
    for (const [key, cell] of expected.cells) {
      const [state, operation] = key.split("_") as [string, "A" | "B" | "C"];
      expect([key, view.latest(fmcsaCensusSeries("CARRIERS", state, operation))?.value]).toEqual([key, cell.carriers]);
      expect(view.latest(fmcsaCensusSeries("POWER_UNITS", state, operation))?.value).toBe(cell.powerUnits);
      expect(view.latest(fmcsaCensusSeries("DRIVERS", state, operation))?.value).toBe(cell.drivers);
    }
    // The U.S. totals are stored beside the states.
    const all = [...expected.cells.values()].reduce((sum, cell) => sum + cell.carriers, 0);
    const us = (["A", "B", "C"] as const).map(
      (op) => defined(view.latest(fmcsaCensusSeries("CARRIERS", "US", op)), `U.S. carriers of operation ${op}`).value,
    );
    expect(us.reduce((a, b) => a + b, 0)).toBe(all);
    // A state the file has no carrier in is a stored zero, dated like the rest.
    expect(view.latest(fmcsaCensusSeries("CARRIERS", "MT", "A"))).toMatchObject({ value: 0, observedOn: "2026-10-01" });
  });

  test("the summary counts rows, malformed rows with examples, private and foreign carriers", async () => {
    expect(output).toMatchObject({
      snapshot_date: "2026-10-01",
      snapshot_date_from: "file name",
      rows: 200_000,
      counted: expected.counted,
      not_for_hire: expected.notForHire,
      outside_states: expected.outsideStates,
      malformed: 200,
      added: 52 * 3 * 3,
    });
    expect(output.malformed_examples).toEqual([
      "row 1000: 20 cells where the header has 42",
      "row 2000: CARRIER_OPERATION 'Z' is not A, B or C",
      "row 3000: NBR_POWER_UNIT / DRIVER_TOTAL is not a count between 0 and 200000",
      "row 4000: '31-FOO-20' is not a date",
      "row 5000: DOT_NUMBER appears twice in the file",
    ]);
  });

  test("only aggregates are stored: no carrier's name, address or contact reaches the database", async () => {
    const series = db.$client.prepare<{ series_id: string }, []>("SELECT DISTINCT series_id FROM observations").all();
    expect(
      series.every((row) => /^FMCSA_CENSUS_(CARRIERS|POWER_UNITS|DRIVERS)_[A-Z]{2}_[ABC]$/.test(row.series_id)),
    ).toBe(true);
    const dump = JSON.stringify(db.$client.prepare("SELECT * FROM data_imports").all());
    expect(dump).not.toContain("example.com");
    expect(dump).not.toContain("TRUCKING");
  });

  test("progress is reported as JSON lines while the file streams, ending at its full size", async () => {
    const steps = progressLines.map((line) => JSON.parse(line).progress);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.at(-1)).toMatchObject({ percent: 100 });
    expect(steps.at(-1).bytes).toBe(steps.at(-1).total);
  });

  test("importing the same file again adds nothing", async () => {
    const again = JSON.parse(
      (await dataImportCensus(db, file, { json: true, now: NOW + 1000, progress: progressSink().stream })).output,
    );
    expect(again).toMatchObject({ import_id: null, added: 0, skipped: 52 * 3 * 3 });
  }, 120_000);
});

describe("FMCSA census import refuses what it cannot trust, and writes nothing", () => {
  test("a file that is mostly malformed rows", async () => {
    const file = join(TMP, "FMCSA_CENSUS1_2026Sep.txt");
    await writeCensusFile(file, { rows: 2_000, malformedEvery: 3 });
    const db = openMemoryDatabase();
    const result = await dataImportCensus(db, file, { now: NOW, progress: progressSink().stream });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(
      /666 of 2000 rows are malformed \(33\.3%, at most 5% allowed\); first: row 3: 20 cells/,
    );
    expect(result.output).toContain("nothing was imported");
    expect([count(db, "observations"), count(db, "data_imports")]).toEqual([0, 0]);
  });

  test.each([
    ["a CSV without the census columns", "month,count\n2026-01,5\n", /the header lacks DOT_NUMBER, CARRIER_OPERATION/],
    ["an empty file", "", /the file is empty/],
    ["a header without rows", `${CENSUS_HEADER.join(",")}\n`, /no carrier rows/],
    ["an unterminated quote", `${CENSUS_HEADER.join(",")}\n"1,"AB\n`, /1 of 1 rows are malformed/],
  ])("%s", async (_, content, message) => {
    mkdirSync(TMP, { recursive: true });
    const file = join(TMP, "census_2026-10-01.csv");
    writeFileSync(file, content);
    const db = openMemoryDatabase();
    const result = await dataImportCensus(db, file, { now: NOW, progress: progressSink().stream });
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(message);
    expect(count(db, "observations")).toBe(0);
  });

  test("a snapshot date older than the filings in the file", async () => {
    const file = join(TMP, "census-undated.csv");
    const expected = await writeCensusFile(file, { rows: 500 });
    const db = openMemoryDatabase();
    const refused = await dataImportCensus(db, file, { date: "2020-01-01", now: NOW, progress: progressSink().stream });
    expect(refused.output).toContain(
      `a row was filed on ${expected.newestFiling}, after the snapshot date 2020-01-01 (option)`,
    );
    expect(count(db, "observations")).toBe(0);

    const dated = JSON.parse(
      (await dataImportCensus(db, file, { json: true, now: NOW, progress: progressSink().stream })).output,
    );
    expect(dated).toMatchObject({ snapshot_date: expected.newestFiling, snapshot_date_from: "newest filing" });
  });
});

describe("census dates and file names", () => {
  test.each([
    ["14-JAN-20", "2020-01-14"],
    ["03-Dec-99", "1999-12-03"],
    ["20260501 0000", "2026-05-01"],
    ["2026-05-01", "2026-05-01"],
    ["31-FEB-20", undefined],
    ["2026-13-01", undefined],
    ["yesterday", undefined],
  ])("%s", (text, iso) => expect(censusDate(text)).toBe(iso));

  test.each([
    ["FMCSA_CENSUS1_2024Jun.txt", "2024-06-01"],
    ["census_Jun2024.csv", "2024-06-01"],
    ["Company_Census_File_2026-11-01.csv", "2026-11-01"],
    ["census-20261101.csv", "2026-11-01"],
    ["census.csv", undefined],
  ])("%s", (name, iso) => expect(snapshotDateFromFileName(name)).toBe(iso));
});
