import { describe, expect, test } from "bun:test";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { appendObservations } from "../../src/reference/storage/append.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { LOADED_AT, snapshotReferenceData } from "./helpers.ts";
import { snapshotImportId } from "../../src/reference/snapshot/index.ts";
import { defined } from "../support/defined.ts";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const DAY = 86_400_000;
/** A series the door admits (values 1..7 are plausible $/gal). */
const S = "EMD_EPD2D_PTE_NUS_DPG";

async function storeWith(imports: { id: string; at: number; rows: [string, number][] }[]) {
  const db = openMemoryDatabase();
  const data = createReferenceData(db);
  for (const { id, at, rows } of imports) {
    await appendObservations(
      db,
      { importId: id, source: "eia", fileName: `${id}.csv`, fileSha256: id },
      rows.map(([observedOn, value]) => ({ seriesId: S, observedOn, value })),
      at,
    );
  }
  return { db, data };
}

const asOfViews = await storeWith([
  {
    id: "imp_a",
    at: T0,
    rows: [
      ["2025-12-01", 1],
      ["2025-12-08", 2],
      ["2025-12-15", 3],
    ],
  },
  // A later revision of 12-08 and a new week.
  {
    id: "imp_b",
    at: T0 + 10 * DAY,
    rows: [
      ["2025-12-08", 2.5],
      ["2025-12-22", 4],
    ],
  },
]);

describe("as-of views", () => {
  const { data } = asOfViews;

  test("sees only observations dated on or before asOf", async () => {
    expect(data.view("2025-12-10", T0 + 20 * DAY).latest(S)?.value).toBe(2.5);
    expect(data.view("2025-11-30", T0 + 20 * DAY).latest(S)).toBeUndefined();
  });

  test("sees only imports fetched on or before knownAt", async () => {
    expect(data.view("2025-12-31", T0 + DAY).latest(S)).toMatchObject({
      observedOn: "2025-12-15",
      value: 3,
      importId: "imp_a",
    });
    expect(data.view("2025-12-10", T0 + DAY).latest(S)?.value).toBe(2);
    expect(data.view("2025-12-31", T0 - 1).latest(S)).toBeUndefined();
  });

  test("the latest fetched version of a date wins, and the old one stays stored", async () => {
    const history = data.view("2025-12-31", T0 + 20 * DAY).history(S);
    expect(history.map((o) => [o.observedOn, o.value, o.importId])).toEqual([
      ["2025-12-01", 1, "imp_a"],
      ["2025-12-08", 2.5, "imp_b"],
      ["2025-12-15", 3, "imp_a"],
      ["2025-12-22", 4, "imp_b"],
    ]);
    expect(
      data
        .view("2025-12-31", T0)
        .history(S, "2025-12-08")
        .map((o) => o.value),
    ).toEqual([2, 3]);
    expect(
      data
        .view("2025-12-31", T0 + 20 * DAY)
        .history(S, "2025-12-09")
        .map((o) => o.value),
    ).toEqual([3, 4]);
  });

  test("a write becomes visible at the next reload(); a reload with nothing new keeps the index", async () => {
    const { db, data: fresh } = await storeWith([{ id: "imp_a", at: T0, rows: [["2025-12-01", 1]] }]);
    const before = fresh.view("2026-12-31", T0 + DAY);
    expect(before.latest(S)?.value).toBe(1);
    fresh.reload(); // nothing was added: the index is kept, so views share it
    expect(fresh.view("2026-12-31", T0 + DAY).latest(S)).toBe(before.latest(S));
    await appendObservations(
      db,
      { importId: "imp_c", source: "fred", fileName: "c", fileSha256: "c" },
      [{ seriesId: S, observedOn: "2026-01-05", value: 7 }],
      T0 + 5 * DAY,
    );
    expect(fresh.view("2026-12-31", T0 + 6 * DAY).latest(S)?.value).toBe(1); // no database read per view
    fresh.reload();
    expect(fresh.view("2026-12-31", T0 + 6 * DAY).latest(S)?.value).toBe(7);
  });

  test("coverage spans all series", async () => {
    expect(data.coverage()).toEqual({ first: "2025-12-01", last: "2025-12-22" });
  });
});

describe("embedded snapshot", () => {
  test("loads once per version; a restart adds nothing", async () => {
    const { db, data } = await snapshotReferenceData();
    const again = await data.loadSnapshot(LOADED_AT + DAY);
    expect(again).toMatchObject({ importId: snapshotImportId(), added: 0, alreadyLoaded: true });
    const imports = db.$client.prepare("SELECT id, rows_added FROM data_imports").all() as {
      id: string;
      rows_added: number;
    }[];
    expect(imports).toHaveLength(1);
    const count = db.$client.prepare("SELECT count(*) AS n FROM observations").get() as { n: number };
    expect(count.n).toBe(defined(imports[0], "the snapshot import").rows_added);
  });

  test("carries the published series with their full ranges", async () => {
    const { data } = await snapshotReferenceData();
    const view = data.view("2026-11-22", LOADED_AT);
    const nus = view.history("EMD_EPD2D_PTE_NUS_DPG");
    expect(nus).toHaveLength(1699);
    expect(nus[0]).toMatchObject({ observedOn: "1994-03-21", value: 1.106 });
    expect(view.latest("EMD_EPD2D_PTE_NUS_DPG")).toMatchObject({ observedOn: "2026-10-05", value: 6.199 });
    // Regional series run without a break from the 1994 workbook into the 2022-2026 copy.
    expect(view.history("EMD_EPD2D_PTE_SCA_DPG")[0]?.observedOn).toBe("1995-07-03");
    expect(data.view("2022-06-13", LOADED_AT).latest("EMD_EPD2D_PTE_SCA_DPG")?.value).toBe(6.887);
    expect(data.view("2016-03-21", LOADED_AT).latest("EMD_EPD2D_PTE_R50_DPG")?.value).toBe(2.311);
    expect(view.latest("EMD_EPD2D_PTE_R5XCA_DPG")).toMatchObject({ observedOn: "2026-09-21", value: 6.791 });
    // 2008 record week.
    expect(data.view("2008-07-14", LOADED_AT).latest("EMD_EPD2D_PTE_NUS_DPG")?.value).toBe(4.764);
    // OEWS May 2024: Texas from the official state file; national history.
    expect(view.latest("OEUS480000000000053303208")).toMatchObject({ observedOn: "2024-05-01", value: 25.51 });
    expect(view.history("OEUN0000000000000533032" + "08").map((o) => o.value)).toEqual([
      20.42, 21.76, 26.12, 27.62, 28.19,
    ]);
    for (const id of [
      "CES4348400001",
      "WPU301",
      "TSIFRGHT",
      "DCOILWTICO",
      "FEDFUNDS",
      "INDPRO",
      "FHWA_MF121T_DIESEL_CA",
    ]) {
      expect(view.latest(id)).toBeDefined();
    }
    expect(view.latest("WPU301")).toMatchObject({ observedOn: "2025-12-01", value: 175.023 });
    // USDA AMS FVWTRK weeks, per district and destination, low and high end of the $/load range.
    expect(view.latest("AMS_FVWTRK_REEFER_LOW_YAKIMA-VALLEY-AND-WENATCHEE-DISTRICT-WASHINGTON__SEATTLE")).toMatchObject(
      { observedOn: "2026-07-28", value: 900 },
    );
    expect(view.latest("AMS_FVWTRK_REEFER_HIGH_YAKIMA-VALLEY-AND-WENATCHEE-DISTRICT-WASHINGTON__SEATTLE")?.value).toBe(
      1200,
    );
    // Market and carrier series under the ids the skills read.
    expect(view.latest("CASS_SHIPMENTS_INDEX")).toMatchObject({ observedOn: "2026-01-01", value: 0.886 });
    expect(view.latest("CASS_TL_LINEHAUL_INDEX")).toMatchObject({ observedOn: "2026-01-01", value: 146 });
    expect(view.latest("ATA_TONNAGE_SA")).toMatchObject({ observedOn: "2025-12-01", value: 112.9 });
    expect(view.latest("FMCSA_NET_CHANGE_CARRIERS")).toMatchObject({ observedOn: "2025-12-01", value: -2287 });
    expect(view.latest("FMCSA_NEW_CARRIERS_TX")).toMatchObject({ observedOn: "2022-06-01", value: 1703 });
    expect(view.latest("TSIFRGHT")?.observedOn).toBe("2026-05-01");
    expect(view.latest("INDPRO")?.observedOn).toBe("2026-07-01");
    expect(view.latest("FEDFUNDS")?.observedOn).toBe("2026-07-01");
    expect(view.history("FEDFUNDS")[0]?.observedOn).toBe("1970-01-01");
  });

  test("annual diesel averages match EIA's published ones", async () => {
    const { data } = await snapshotReferenceData();
    const average = (year: number) => {
      const weeks = data.view(`${year}-12-31`, LOADED_AT).history("EMD_EPD2D_PTE_NUS_DPG", `${year}-01-01`);
      return weeks.reduce((sum, o) => sum + o.value, 0) / weeks.length;
    };
    expect(average(2022)).toBeCloseTo(4.989, 2);
    expect(average(2023)).toBeCloseTo(4.214, 2);
    expect(average(2024)).toBeCloseTo(3.76, 2);
  });

  test("the snapshot file is this project's own format, not a copy of the research files", async () => {
    const text = await Bun.file(new URL("../../src/reference/snapshot/figures.json", import.meta.url)).text();
    const snapshot = JSON.parse(text);
    expect(snapshot.version).toBe(snapshotImportId().replace("imp_snapshot_", ""));
    for (const series of snapshot.series) expect(series.source.length).toBeGreaterThan(5);
  });
});
