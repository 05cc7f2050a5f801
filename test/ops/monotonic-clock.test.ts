import { afterEach, describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/clock.ts";
import { createApp } from "../../src/app.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { issueKey } from "../../src/access/keys.ts";
import { createAccount } from "../../src/access/accounts.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import { configureLog } from "../../src/ops/log.ts";
import { MonotonicClock, newestRecordedInstant } from "../../src/ops/monotonic-clock.ts";
import { createRuntime } from "../../src/runtime.ts";
import { CHICAGO_TO_DALLAS } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

afterEach(() => configureLog({ level: "warn", write: (line) => console.error(line) }));

describe("MonotonicClock", () => {
  test("never goes back, logs a step back once, and follows the wall clock again once it catches up", () => {
    const lines: string[] = [];
    configureLog({ format: "json", level: "info", write: (line) => lines.push(line) });
    const wall = new ManualClock(Date.parse("2026-11-20T12:00:00Z"));
    const clock = new MonotonicClock(wall, 0, () => 0); // no time passes but what the test moves
    expect(clock.now()).toBe(wall.now());
    wall.advance(-3_600_000);
    expect(clock.now()).toBe(Date.parse("2026-11-20T12:00:00Z"));
    expect(clock.now()).toBe(Date.parse("2026-11-20T12:00:00Z"));
    expect(lines.map((l) => JSON.parse(l).event)).toEqual(["clock_stepped_back"]);
    expect(JSON.parse(defined(lines[0], "the clock_stepped_back line")).behind_ms).toBe(3_600_000);
    wall.advance(3_600_001);
    expect(clock.now()).toBe(Date.parse("2026-11-20T12:00:00.001Z"));
    expect(lines.map((l) => JSON.parse(l).event)).toEqual(["clock_stepped_back", "clock_caught_up"]);
  });
});

describe("a backward step of the wall clock", () => {
  test("the clock runs on by the time that really passes while the wall clock is behind", () => {
    const wall = new ManualClock(Date.parse("2026-11-20T12:00:00Z"));
    let elapsed = 5_000;
    const clock = new MonotonicClock(wall, 0, () => elapsed);
    expect(clock.now()).toBe(Date.parse("2026-11-20T12:00:00Z"));
    wall.advance(-3_600_000);
    elapsed += 1500.5;
    expect(clock.now()).toBe(Date.parse("2026-11-20T12:00:01.500Z"));
    wall.advance(2000); // still an hour behind: wall time does not matter until it catches up
    elapsed += 0.5;
    expect(clock.now()).toBe(Date.parse("2026-11-20T12:00:01.501Z"));
    wall.set(Date.parse("2026-11-20T13:00:00Z"));
    expect(clock.now()).toBe(Date.parse("2026-11-20T13:00:00Z"));
  });

  test("a key refused by its minute window is admitted again after its Retry-After, not after the whole gap", async () => {
    const db = openMemoryDatabase();
    const wall = new ManualClock(Date.parse("2026-11-20T12:00:00Z"));
    let elapsed = 0;
    const clock = new MonotonicClock(wall, 0, () => elapsed);
    const runtime = await createRuntime({ db, clock, limits: DEFAULT_LIMITS });
    const account = await createAccount(db, { email: "w@example.com", tier: "explorer" }, clock.now());
    const { key } = await issueKey(db, account.id, null, clock.now());
    const app = createApp(runtime);
    const call = () =>
      app.handle(
        new Request("http://localhost/v1/rates/lookup", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(CHICAGO_TO_DALLAS),
        }),
      );
    for (let i = 0; i < DEFAULT_LIMITS.explorer.perMinute; i++) expect((await call()).status).toBe(200);
    elapsed += 10_000;
    wall.advance(-3_600_000 + 10_000); // the wall clock steps an hour back
    const refused = await call();
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(61);
    // One second short of the promise: still refused, with what is left of it.
    elapsed += (retryAfter - 1) * 1000;
    wall.advance((retryAfter - 1) * 1000);
    const early = await call();
    expect(early.status).toBe(429);
    expect(Number(early.headers.get("retry-after"))).toBeLessThanOrEqual(1);
    elapsed += 1000;
    wall.advance(1000);
    expect((await call()).status).toBe(200);
    await runtime.close();
  });
});

describe("a restart with the wall clock before the newest import and receipt", () => {
  test("calls are still answered, and receipt issue times never run backwards against seq", async () => {
    const db = openMemoryDatabase();
    const firstRun = new ManualClock(Date.parse("2026-11-20T12:00:00Z"));
    const before = await createRuntime({ db, clock: firstRun, limits: DEFAULT_LIMITS }); // loads the snapshot "now"
    const account = await createAccount(db, { email: "t@example.com", tier: "enterprise" }, firstRun.now());
    const { key } = await issueKey(db, account.id, null, firstRun.now());
    const call = (app: ReturnType<typeof createApp>) =>
      app.handle(
        new Request("http://localhost/v1/rates/lookup", {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(CHICAGO_TO_DALLAS),
        }),
      );
    expect((await call(createApp(before))).status).toBe(200);
    await before.close();

    // restart: the wall clock is now two days behind what the database already holds
    const wall = new ManualClock(Date.parse("2026-11-18T12:00:00Z"));
    const clock = new MonotonicClock(wall, await newestRecordedInstant(db));
    const after = await createRuntime({ db, clock, limits: DEFAULT_LIMITS });
    const app = createApp(after);
    for (let i = 0; i < 3; i++) {
      const response = await call(app);
      expect(response.status).toBe(200);
      wall.advance(1000);
    }
    const times = db.$client
      .query<{ seq: number; issued_at: number }, []>("SELECT seq, issued_at FROM receipts ORDER BY seq")
      .all();
    expect(times).toHaveLength(4);
    const issued = times.map((receipt) => receipt.issued_at);
    expect(issued).toEqual(issued.toSorted((a, b) => a - b));
    await after.close();
  });
});
