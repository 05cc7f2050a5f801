import { afterEach, describe, expect, test } from "bun:test";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { DataEvents } from "../../src/reference/storage/data-events.ts";
import { nextCheckAfter, SYNC_CADENCE } from "../../src/reference/sync/cadence.ts";
import { startSyncSchedule } from "../../src/reference/sync/schedule.ts";
import { type FakeApi, startFakeApis, syncEnv } from "./sync-server.ts";

const iso = (ms: number) => new Date(ms).toISOString();

describe("each source is checked on its publication cadence", () => {
  test("EIA after Monday's release and again on Tuesday; USDA midweek; FRED twice a month; BLS after the jobs report", () => {
    const saturday = Date.parse("2026-11-28T10:00:00Z");
    expect(iso(nextCheckAfter(SYNC_CADENCE.eia, saturday))).toBe("2026-11-30T23:00:00.000Z");
    expect(iso(nextCheckAfter(SYNC_CADENCE.eia, Date.parse("2026-11-30T23:00:00Z")))).toBe("2026-12-01T23:00:00.000Z");
    expect(iso(nextCheckAfter(SYNC_CADENCE.ams, saturday))).toBe("2026-12-02T18:00:00.000Z");
    expect(iso(nextCheckAfter(SYNC_CADENCE.fred, saturday))).toBe("2026-12-03T15:00:00.000Z");
    expect(iso(nextCheckAfter(SYNC_CADENCE.fred, Date.parse("2026-12-03T15:00:01Z")))).toBe("2026-12-17T15:00:00.000Z");
    expect(iso(nextCheckAfter(SYNC_CADENCE.bls, saturday))).toBe("2026-12-08T15:00:00.000Z");
  });
});

let api: FakeApi | undefined;
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  api?.stop();
});

describe("the server's sync schedule", () => {
  test("an unreachable network: one line per source, retries back off, and the first success is logged", async () => {
    const lines: string[] = [];
    const db = openMemoryDatabase();
    let env = syncEnv("http://127.0.0.1:9", false);
    stop = startSyncSchedule({
      db,
      env: new Proxy({}, { get: (_, name: string) => env[name] }),
      now: () => Date.now(),
      events: new DataEvents(),
      log: (line) => lines.push(line),
      firstRunMs: 0,
      retryMs: 300,
    });
    const deadline = Date.now() + 10_000;
    while (lines.length < 5 && Date.now() < deadline) await Bun.sleep(20);
    await Bun.sleep(700); // two more tries (300 ms, then 600 ms) fail without a line
    expect(lines).toHaveLength(5);
    expect(
      lines.every((l) => /^data sync \w+: failed, request failed: .*trying again at \S+Z and backing off$/.test(l)),
    ).toBe(true);
    api = startFakeApis();
    env = syncEnv(api.url, false);
    while (lines.length < 10 && Date.now() < deadline) await Bun.sleep(20);
    expect(lines.slice(5).map((l) => l.split(":")[0])).toEqual([
      "data sync eia",
      "data sync fred",
      "data sync bls",
      "data sync ams",
      "data sync fmcsa",
    ]);
    expect(lines[5]).toMatch(/^data sync eia: 5060 new observations/);
  }, 30_000);
});
