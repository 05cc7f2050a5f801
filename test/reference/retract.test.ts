import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dataImport, dataRetract, dataStatus } from "../../src/cli/data.ts";
import { LOADED_AT, snapshotReferenceData } from "./helpers.ts";

const IMPORTED = Date.parse("2026-11-23T08:00:00Z");
const RETRACTED = Date.parse("2026-11-24T08:00:00Z");
const LANE = "AMS_FVWTRK_REEFER_LOW_GEORGIA__ATLANTA";

async function withBadImport() {
  const { db, data } = await snapshotReferenceData();
  // A table whose Georgia -> Atlanta range differs from the shipped week: a revision of 2026-07-28.
  const file = join(mkdtempSync(join(tmpdir(), "waybill-retract-")), "fvwtrk.csv");
  writeFileSync(
    file,
    "report_date,origin_district,destination,rate_low_usd_per_load,rate_high_usd_per_load\n2026-07-28,GEORGIA,Atlanta,700,1300\n",
  );
  const result = JSON.parse((await dataImport(db, "ams", file, { json: true, now: IMPORTED })).output);
  data.reload();
  return { db, data, importId: result.import_id as string };
}

describe("waybill data retract", () => {
  test("hides the import from views known after the retraction; views pinned before keep it", async () => {
    const { db, data, importId } = await withBadImport();
    expect(data.view("2026-08-01", IMPORTED + 1).latest(LANE)).toMatchObject({ value: 700, importId });
    const done = await dataRetract(db, importId, "figures keyed from the wrong week", { now: RETRACTED });
    expect(done.exitCode).toBe(0);
    expect(done.output).toContain(`retracted ${importId}`);
    data.reload();
    // From now on the shipped figure is the one seen again.
    const after = data.view("2026-08-01", RETRACTED + 1).latest(LANE);
    expect(after?.importId).not.toBe(importId);
    expect(after?.observedOn).toBe("2026-07-28");
    // A receipt signed in between pinned knownAt before the retraction: its view is unchanged.
    expect(data.view("2026-08-01", IMPORTED + 1).latest(LANE)).toMatchObject({ value: 700, importId });
    // Before the import the snapshot's figure was seen, and still is.
    expect(data.view("2026-08-01", LOADED_AT).latest(LANE)?.importId).toBe(after?.importId);
  });

  test("refuses without a reason, an unknown import, and a second retraction; status lists it", async () => {
    const { db, importId } = await withBadImport();
    expect(await dataRetract(db, importId, "  ", { now: RETRACTED })).toEqual({
      exitCode: 1,
      output: "waybill: a retraction needs a reason (--reason TEXT)",
    });
    expect((await dataRetract(db, "imp_nope", "x", { now: RETRACTED })).output).toMatch(/no import 'imp_nope'/);
    expect((await dataRetract(db, importId, "first", { now: RETRACTED })).exitCode).toBe(0);
    expect((await dataRetract(db, importId, "again", { now: RETRACTED + 1 })).output).toMatch(
      /already retracted \(first\)/,
    );
    const status = JSON.parse((await dataStatus(db, { json: true, now: RETRACTED })).output);
    expect(status.imports.find((i: { id: string }) => i.id === importId)).toMatchObject({
      retracted: { reason: "first" },
    });
  });
});
