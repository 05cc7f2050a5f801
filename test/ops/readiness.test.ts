import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ManualClock } from "../../src/clock.ts";
import { openDatabase } from "../../src/db/client.ts";
import { createReadiness, sqliteProbe } from "../../src/ops/readiness.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(import.meta.dir, "../../.tmp/readiness-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("/readyz makes a real write", () => {
  let server: TestInstance;
  beforeAll(async () => {
    server = await testInstance({ listen: true });
  });
  afterAll(() => server.stop());

  test("ready on a healthy database", async () => {
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ready", checks: { database_writable: true } });
  });

  test("a full database (no page left to grow into) is 503 with the reason, and answers fail without a receipt", async () => {
    const sqlite = server.db.$client;
    const { page_count } = defined(
      sqlite.query<{ page_count: number }, []>("PRAGMA page_count").get(),
      "the row of PRAGMA page_count",
    );
    sqlite.run(`PRAGMA max_page_count = ${page_count}`);
    const { key } = await server.accountWithKey("enterprise");
    // Fill the last free pages with answers until one cannot be committed.
    let status = 200;
    for (let i = 0; i < 200 && status === 200; i++) {
      status = (await server.call("/v1/rates/lookup", { method: "POST", key, json: CHICAGO_TO_DALLAS })).status;
    }
    expect(status).toBe(500);
    (server.clock as ManualClock).advance(1100); // past the probe's one-second cache
    const response = await fetch(`${server.url}/readyz`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { checks: { database_writable: boolean }; reasons: string[] };
    expect(body.checks.database_writable).toBe(false);
    expect(body.reasons.join(" ")).toContain("disk full");
    sqlite.run("PRAGMA max_page_count = 1073741823");
  });
});

describe("the probe names the failure", () => {
  test("a read-only database", async () => {
    const file = join(dir, "ro.db");
    openDatabase(file).$client.close();
    const readOnly = new Database(file, { readonly: true });
    const probe = createReadiness(sqliteProbe({ $client: readOnly } as never));
    const result = await probe.check(1);
    expect(result).toEqual({ ok: false, reason: "the database file or its folder is read-only" });
    readOnly.close();
  });

  test("a corrupted receipts table", async () => {
    const file = join(dir, "corrupt.db");
    const db = openDatabase(file);
    const { rootpage } = defined(
      db.$client.query<{ rootpage: number }, []>("SELECT rootpage FROM sqlite_schema WHERE name = 'receipts'").get(),
      "the row of SELECT rootpage FROM sqlite_schema WHERE name = 'receipts'",
    );
    const { page_size } = defined(
      db.$client.query<{ page_size: number }, []>("PRAGMA page_size").get(),
      "the row of PRAGMA page_size",
    );
    db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.$client.close();
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(page_size, 0xa5), 0, page_size, (rootpage - 1) * page_size);
    closeSync(fd);
    const reopened = new Database(file);
    const result = await createReadiness(sqliteProbe({ $client: reopened } as never)).check(1);
    expect(result).toEqual({ ok: false, reason: "the database file is corrupted" });
    reopened.close();
  });

  test("a failed answer commit keeps it unready for a minute unless a later commit succeeds", async () => {
    const db = openDatabase(":memory:");
    const probe = createReadiness(sqliteProbe(db));
    expect((await probe.check(1_000)).ok).toBe(true);
    probe.commitFailed(Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR_WRITE" }), 1_000);
    expect(await probe.check(2_000)).toEqual({
      ok: false,
      reason: "the last answer could not be committed: disk I/O error (SQLITE_IOERR_WRITE)",
    });
    expect((await probe.check(61_001)).ok).toBe(true);
    probe.commitFailed(Object.assign(new Error("x"), { code: "SQLITE_FULL" }), 70_000);
    probe.commitSucceeded();
    expect((await probe.check(70_001)).ok).toBe(true);
    probe.commitFailed(new Error("not a database error"), 80_000);
    expect((await probe.check(80_001)).ok).toBe(true);
  });
});
