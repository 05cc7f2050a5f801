import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Principal } from "../../src/access/principal.ts";
import { ManualClock } from "../../src/clock.ts";
import { openDatabase, openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { ApiError } from "../../src/errors.ts";
import { createMemoryMeter } from "../../src/metering/create-meter.ts";
import { DEFAULT_LIMITS, parseLimits, type LimitsTable } from "../../src/metering/limits.ts";
import type { FileAdmission, MemoryMeter } from "../../src/metering/meter.ts";
import { answeredInDb } from "./fixtures.ts";
import { testInstance } from "../support/instance.ts";
import { rotateKey, seedPrincipal } from "../support/accounts.ts";

const at = (iso: string) => Date.parse(iso);
const epochSeconds = (iso: string) => at(iso) / 1000;

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal, the call was admitted");
}

/** Admit and answer one call the way the pipeline does: count it inside the answer's transaction. */
function answer(db: Db, meter: MemoryMeter, principal: Principal, now: number): FileAdmission {
  const admission = meter.admit(principal, now);
  db.$client.transaction(() => admission.commit(db)).immediate();
  return admission;
}

function setup(limits: LimitsTable = DEFAULT_LIMITS, tier: Principal["tier"] = "explorer") {
  const db = openMemoryDatabase();
  const meter = createMemoryMeter({ db, limits });
  return { db, meter, principal: seedPrincipal(db, { tier: tier }) };
}

/** Explorer with a month large enough to stay out of the way of minute tests, and the reverse. */
const ROOMY_MONTH = parseLimits('{"explorer":{"per_month":100000}}');
const ROOMY_MINUTE = (perMonth: number) => parseLimits(`{"explorer":{"per_minute":100000,"per_month":${perMonth}}}`);

/** The answer's transaction counts the call, then fails (say, the receipt append) and rolls back. */
function countThenRollBack(db: Db, admission: FileAdmission): void {
  const failure = new Error("the receipt could not be appended");
  expect(() =>
    db.$client
      .transaction(() => {
        admission.commit(db);
        throw failure;
      })
      .immediate(),
  ).toThrow(failure.message);
}

describe("minute window (exact sliding log)", () => {
  test("a burst at the end of a minute still counts at the start of the next, until each call is 60 s old", async () => {
    const { meter, principal } = setup(ROOMY_MONTH);
    for (let i = 0; i < 3; i++) meter.admit(principal, at("2026-03-10T12:00:50Z"));
    expect(refusal(() => meter.admit(principal, at("2026-03-10T12:00:59.999Z"))).extra.window).toBe("minute");
    // A fixed window would let three more through here.
    expect(refusal(() => meter.admit(principal, at("2026-03-10T12:01:00.000Z"))).extra.window).toBe("minute");
    expect(refusal(() => meter.admit(principal, at("2026-03-10T12:01:49.999Z"))).extra.window).toBe("minute");
    for (let i = 0; i < 3; i++) meter.admit(principal, at("2026-03-10T12:01:50.000Z"));
    expect(refusal(() => meter.admit(principal, at("2026-03-10T12:01:50.000Z"))).extra.window).toBe("minute");
  });

  test("the 429 names the window, its limit, reset and a Retry-After that lets the retry through", async () => {
    const { meter, principal } = setup(ROOMY_MONTH);
    for (let i = 0; i < 3; i++) meter.admit(principal, at("2026-03-10T12:00:50Z"));
    const refused = refusal(() => meter.admit(principal, at("2026-03-10T12:00:50.400Z")));
    expect(refused.status).toBe(429);
    // The oldest of the three turns 60 s old at 12:01:50.
    const reset = epochSeconds("2026-03-10T12:01:50Z");
    expect(refused.extra).toEqual({ window: "minute", limit: 3, remaining: 0, reset, retry_after: 60 });
    expect(refused.headers).toMatchObject({
      "Retry-After": "60",
      "X-RateLimit-Limit": "3",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(reset),
    });
    expect(refusal(() => meter.admit(principal, reset * 1000 - 1)).extra.window).toBe("minute");
    expect(meter.admit(principal, reset * 1000).headers["X-RateLimit-Remaining"]).toBe("2");
  });

  test("Retry-After is a whole number ≥ 1 that never points before the reset, and the reset lets a call through", async () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 30_000 }), { minLength: 1, maxLength: 60 }),
        (perMinute, gaps) => {
          const limits = parseLimits(`{"explorer":{"per_minute":${perMinute},"per_month":100000}}`);
          const { meter, principal } = setup(limits);
          let now = at("2026-05-31T23:58:00Z");
          for (const gap of gaps) {
            now += gap;
            try {
              meter.admit(principal, now);
            } catch (error) {
              const { reset, retry_after } = (error as ApiError).extra as { reset: number; retry_after: number };
              expect(Number.isInteger(retry_after) && retry_after >= 1).toBe(true);
              expect(now / 1000 + retry_after).toBeGreaterThanOrEqual(reset);
              expect(reset * 1000).toBeGreaterThan(now);
              // Waiting until the advertised reset is always enough (a look ahead, which changes nothing).
              expect(meter.windows(principal, reset * 1000).minute.remaining).toBeGreaterThanOrEqual(1);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test("the window is per key: another key of another account is not slowed down", async () => {
    const { db, meter, principal } = setup(ROOMY_MONTH);
    const other = seedPrincipal(db, { tier: "explorer" });
    for (let i = 0; i < 3; i++) meter.admit(principal, at("2026-03-10T12:00:00Z"));
    expect(() => meter.admit(other, at("2026-03-10T12:00:00Z"))).not.toThrow();
  });

  test("a call refused by the minute window touches no database, even with the month mirror dropped", async () => {
    const { db, meter, principal } = setup(ROOMY_MONTH);
    for (let i = 0; i < 3; i++) meter.admit(principal, at("2026-03-10T12:00:00Z"));
    meter.invalidate();
    db.$client.close();
    expect(refusal(() => meter.admit(principal, at("2026-03-10T12:00:01Z"))).extra.window).toBe("minute");
  });
});

describe("headers", () => {
  test("they describe the window closest to exhaustion: fewer remaining, then the sooner reset", async () => {
    const { db, meter, principal } = setup(parseLimits('{"explorer":{"per_minute":3,"per_month":4}}'));
    const first = meter.admit(principal, at("2026-03-10T12:00:00Z")).headers;
    // minute: 2 left (back to 3 when the call is 60 s old, at 12:01); month: 3 left until April → minute.
    expect(first).toEqual({
      "X-RateLimit-Limit": "3",
      "X-RateLimit-Remaining": "2",
      "X-RateLimit-Reset": String(epochSeconds("2026-03-10T12:01:00Z")),
    });
    db.$client.run("INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, '2026-03', 2)", [
      principal.accountId,
    ]);
    meter.invalidate();
    // month: 4 − 2 answered − 1 reserved − this one = 0; minute: 1 → month.
    const second = meter.admit(principal, at("2026-03-10T12:00:10Z")).headers;
    expect(second).toEqual({
      "X-RateLimit-Limit": "4",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(epochSeconds("2026-04-01T00:00:00Z")),
    });
  });

  test("on a tie in remaining, the window that resets sooner", async () => {
    const { meter, principal } = setup(parseLimits('{"explorer":{"per_minute":3,"per_month":3}}'));
    const headers = meter.admit(principal, at("2026-03-10T12:00:00Z")).headers;
    expect(headers["X-RateLimit-Remaining"]).toBe("2");
    expect(headers["X-RateLimit-Reset"]).toBe(String(epochSeconds("2026-03-10T12:01:00Z")));
  });

  test("peek reports without counting", async () => {
    const { meter, principal } = setup();
    const now = at("2026-03-10T12:00:00Z");
    for (let i = 0; i < 5; i++) meter.peek(principal, now);
    expect(meter.peek(principal, now)["X-RateLimit-Remaining"]).toBe("3");
    expect(meter.windows(principal, now).month.remaining).toBe(25);
  });
});

describe("monthly quota (calendar month in UTC, per account)", () => {
  test.each([
    ["31-day month", "2026-01-31T23:59:59.999Z", "2026-02-01T00:00:00.000Z", "2026-01", "2026-02"],
    ["February, non-leap", "2026-02-28T23:59:59.999Z", "2026-03-01T00:00:00.000Z", "2026-02", "2026-03"],
    ["February, leap", "2028-02-29T23:59:59.999Z", "2028-03-01T00:00:00.000Z", "2028-02", "2028-03"],
  ])("%s: used up at 23:59:59.999, fresh at 00:00 on the 1st", (_name, lastMs, firstMs, month, nextMonth) => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(2));
    answer(db, meter, principal, at(lastMs) - 60_000);
    answer(db, meter, principal, at(lastMs) - 1);
    const refused = refusal(() => meter.admit(principal, at(lastMs)));
    expect(refused.extra).toEqual({
      window: "month",
      limit: 2,
      remaining: 0,
      reset: at(firstMs) / 1000,
      retry_after: 1,
    });
    expect(refused.headers["X-RateLimit-Reset"]).toBe(String(at(firstMs) / 1000));
    const fresh = answer(db, meter, principal, at(firstMs));
    expect(fresh.headers["X-RateLimit-Remaining"]).toBe("1");
    expect([answeredInDb(db, principal.accountId, month), answeredInDb(db, principal.accountId, nextMonth)]).toEqual([
      2, 1,
    ]);
  });

  test("a month refusal's Retry-After points at 00:00 UTC on the 1st", async () => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(1));
    answer(db, meter, principal, at("2026-04-30T10:00:00Z"));
    const refused = refusal(() => meter.admit(principal, at("2026-04-30T10:00:00.250Z")));
    expect(refused.headers["Retry-After"]).toBe(String(14 * 3600));
  });

  test("a new key for the same account does not reset the month", async () => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(2));
    answer(db, meter, principal, at("2026-03-10T12:00:00Z"));
    answer(db, meter, principal, at("2026-03-10T12:00:01Z"));
    const rotated = rotateKey(db, principal);
    expect(refusal(() => meter.admit(rotated, at("2026-03-10T12:05:00Z"))).extra.window).toBe("month");
  });

  test("the month survives a restart: a new meter reads monthly_usage", async () => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(2));
    answer(db, meter, principal, at("2026-03-10T12:00:00Z"));
    answer(db, meter, principal, at("2026-03-10T12:00:01Z"));
    const restarted = createMemoryMeter({ db, limits: ROOMY_MINUTE(2) });
    expect(refusal(() => restarted.admit(principal, at("2026-03-10T12:00:02Z"))).extra.window).toBe("month");
  });

  test("reservations hold slots for calls in flight; release gives them back; refusals never consume the month", async () => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(2));
    const now = at("2026-03-10T12:00:00Z");
    const first = meter.admit(principal, now);
    meter.admit(principal, now);
    for (let i = 0; i < 5; i++) expect(refusal(() => meter.admit(principal, now)).extra.window).toBe("month");
    first.release();
    first.release(); // idempotent
    const third = meter.admit(principal, now);
    expect(refusal(() => meter.admit(principal, now)).extra.window).toBe("month");
    db.$client.transaction(() => third.commit(db)).immediate();
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(1);
  });

  test("100 concurrent calls with L left in the month yield exactly L admissions and L answered", async () => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(1000));
    const left = 37;
    db.$client.run("INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, '2026-03', ?)", [
      principal.accountId,
      1000 - left,
    ]);
    const clock = new ManualClock(at("2026-03-10T12:00:00Z"));
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        let admission: FileAdmission;
        try {
          admission = meter.admit(principal, clock.now());
        } catch {
          return "refused";
        }
        await Bun.sleep(i % 3); // other calls run meanwhile, as they do while a body is read
        if (i % 10 === 0) {
          admission.release(); // a 400: the slot goes back and a later call may take it
          return "invalid";
        }
        db.$client.transaction(() => admission.commit(db)).immediate();
        return "answered";
      }),
    );
    const answered = outcomes.filter((o) => o === "answered").length;
    const admitted = outcomes.filter((o) => o !== "refused").length;
    expect(admitted).toBeGreaterThanOrEqual(left);
    expect(answered).toBeLessThanOrEqual(left);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(1000 - left + answered);
    // What was released can still be used, and no more than that.
    let more = 0;
    while (more < 200) {
      try {
        answer(db, meter, principal, clock.now());
        more += 1;
      } catch {
        break;
      }
    }
    expect(answered + more).toBe(left);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(1000);
  });

  test("with L left, N simultaneous calls through the pipeline are answered exactly L times", async () => {
    // 100 calls in flight at once: each is admitted, then waits for its body and for the group
    // commit, so admissions and commits of different calls interleave.
    const instance = await testInstance({
      limits: ROOMY_MINUTE(50),
      clock: new ManualClock(at("2026-03-10T12:00:00Z")),
    });
    const { key, accountId } = await instance.accountWithKey("explorer");
    instance.db.$client.run("INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, '2026-03', 38)", [
      accountId,
    ]);
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () =>
        instance
          .call("/v1/fuel/surcharge", { method: "POST", key, json: { region: "NATIONAL" } })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(12);
    expect(statuses.filter((status) => status === 429)).toHaveLength(88);
    expect(answeredInDb(instance.db, accountId, "2026-03")).toBe(50);
    await instance.stop();
  });

  test("a rolled-back transaction leaves the count right, in the database and in memory", async () => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(3));
    const now = at("2026-03-10T12:00:00Z");
    answer(db, meter, principal, now);
    const failing = meter.admit(principal, now);
    countThenRollBack(db, failing);
    failing.release();
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(1);
    expect(meter.windows(principal, now).month.remaining).toBe(2);
    answer(db, meter, principal, now);
    answer(db, meter, principal, now);
    expect(refusal(() => meter.admit(principal, now)).extra.window).toBe("month");
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(3);
  });

  test("a rollback released after the month was reloaded is not subtracted twice", async () => {
    const { db, meter, principal } = setup(ROOMY_MINUTE(3));
    const now = at("2026-03-10T12:00:00Z");
    answer(db, meter, principal, now);
    const failing = meter.admit(principal, now);
    countThenRollBack(db, failing);
    meter.invalidate();
    meter.admit(principal, now); // reloads 1 answered from the database, reserves one
    failing.release();
    expect(meter.windows(principal, now).month.remaining).toBe(1);
  });

  test("invalidate() picks up a count another process wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), "waybill-meter-"));
    try {
      const file = join(dir, "w.db");
      const db = openDatabase(file);
      const principal = seedPrincipal(db, { tier: "explorer" });
      const meter = createMemoryMeter({ db, limits: ROOMY_MINUTE(10) });
      const now = at("2026-03-10T12:00:00Z");
      expect(meter.windows(principal, now).month.remaining).toBe(10);
      const cli = openDatabase(file);
      cli.$client.run("INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, '2026-03', 7)", [
        principal.accountId,
      ]);
      cli.$client.close();
      expect(meter.windows(principal, now).month.remaining).toBe(10);
      meter.invalidate();
      expect(meter.windows(principal, now).month.remaining).toBe(3);
      db.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the tier in force decides: an upgraded account gets the new limits at once", async () => {
    const { meter, principal } = setup();
    const now = at("2026-03-10T12:00:00Z");
    for (let i = 0; i < 3; i++) meter.admit(principal, now);
    expect(() => meter.admit({ ...principal, tier: "starter" }, now)).not.toThrow();
  });
});
