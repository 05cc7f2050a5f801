import { describe, expect, test } from "bun:test";
import { dataImport, dataRetract, dataStatus } from "../../src/cli/data.ts";
import { watchChanges } from "../../src/db/changes.ts";
import { openStore } from "../../src/db/open.ts";
import { appendObservations } from "../../src/reference/storage/append.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { snapshotImportId } from "../../src/reference/snapshot/index.ts";
import { usePostgres } from "../support/postgres.ts";
import { fixture } from "./helpers.ts";
import { defined } from "../support/defined.ts";

const postgres = usePostgres();
const NOW = Date.parse("2026-11-22T12:00:00Z");
const quiet = { isTTY: false, write: () => {} };

async function replicas(count: number) {
  const url = await postgres.freshDatabase();
  return Promise.all(Array.from({ length: count }, () => openStore({ dialect: "postgres", url })));
}

describe("reference figures on PostgreSQL", () => {
  test("three replicas loading the snapshot at once store it once, and each reads every series", async () => {
    const opened = await replicas(3);
    try {
      const data = opened.map(({ store }) => createReferenceData(store));
      const loads = await Promise.all(data.map((one) => one.loadSnapshot(NOW)));
      expect(loads.filter((load) => load.added > 0)).toHaveLength(1);
      const { store } = defined(opened[0], "the first replica");
      const { dataImports, observations } = store.t;
      expect(await store.select().from(dataImports)).toMatchObject([{ id: snapshotImportId() }]);
      const stored = (await store.select({ id: observations.id }).from(observations)).length;
      expect(stored).toBe(
        defined(
          loads.find((load) => load.added > 0),
          "the replica that stored the snapshot",
        ).added,
      );
      const series = data.map((one) => one.summary().length);
      expect(series[0]).toBeGreaterThan(100);
      expect(new Set(series).size).toBe(1);
      expect(defined(data[2], "the third replica").view("2026-11-20", NOW).latest("EMD_EPD2D_PTE_NUS_DPG")).toEqual(
        defined(data[0], "the first replica").view("2026-11-20", NOW).latest("EMD_EPD2D_PTE_NUS_DPG"),
      );
    } finally {
      for (const { close } of opened) await close();
    }
  });

  test("data import, status and retract work against it, with the same refusals as on a file", async () => {
    const [{ store, close }] = (await replicas(1)) as [Awaited<ReturnType<typeof openStore>>];
    try {
      const imported = JSON.parse(
        (await dataImport(store, "fred", fixture("fred_wpu301.csv"), { json: true, now: NOW, progress: quiet })).output,
      );
      expect(imported).toMatchObject({ source: "fred", added: 4, skipped: 0 });
      const again = JSON.parse(
        (await dataImport(store, "fred", fixture("fred_wpu301.csv"), { json: true, now: NOW + 1, progress: quiet }))
          .output,
      );
      expect(again).toMatchObject({ import_id: null, added: 0, skipped: 4 });
      const status = JSON.parse((await dataStatus(store, { json: true, now: NOW })).output);
      expect(status.series.find((s: { series_id: string }) => s.series_id === "WPU301")).toMatchObject({
        observations: 4,
        latest: "2025-12-01",
      });
      expect(status.imports).toEqual([
        expect.objectContaining({ id: imported.import_id, rows_added: 4, retracted: null }),
      ]);
      const retracted = await dataRetract(store, imported.import_id, "wrong file", { json: true, now: NOW + 2 });
      expect(JSON.parse(retracted.output)).toMatchObject({ import_id: imported.import_id, observations: 4 });
      expect(await dataRetract(store, imported.import_id, "twice", { now: NOW + 3 })).toMatchObject({ exitCode: 1 });
      expect((await dataRetract(store, "imp_nope", "why", { now: NOW + 3 })).output).toMatch(/no import 'imp_nope'/);
      const after = JSON.parse((await dataStatus(store, { json: true, now: NOW })).output);
      expect(after.imports[0].retracted).toEqual({ at: new Date(NOW + 2).toISOString(), reason: "wrong file" });
    } finally {
      await close();
    }
  });

  test("a replica hears another's import through NOTIFY and reads the new figure on reload", async () => {
    const [servingReplica, importingReplica] = await replicas(2);
    const serving = defined(servingReplica, "the serving replica");
    const importing = defined(importingReplica, "the importing replica");
    const data = createReferenceData(serving.store);
    await data.loadSnapshot(NOW);
    const watcher = await watchChanges(serving.store);
    try {
      expect(watcher.poll()).toEqual({ local: false, external: false });
      await appendObservations(
        importing.store,
        { importId: "imp_other_replica", source: "eia", fileName: "pswrgvwall.csv", fileSha256: "0".repeat(64) },
        [{ seriesId: "EMD_EPD2D_PTE_NUS_DPG", observedOn: "2026-11-16", value: 6.222 }],
        NOW,
      );
      const deadline = Date.now() + 5000;
      while (!watcher.poll().external && Date.now() < deadline) await Bun.sleep(20);
      expect(Date.now()).toBeLessThan(deadline);
      expect(await data.reload()).toBe(true);
      expect(data.view("2026-11-20", NOW + 1).latest("EMD_EPD2D_PTE_NUS_DPG")).toMatchObject({
        observedOn: "2026-11-16",
        value: 6.222,
      });
      expect(await data.reload()).toBe(false);
    } finally {
      await watcher.close();
      await serving.close();
      await importing.close();
    }
  });
});
