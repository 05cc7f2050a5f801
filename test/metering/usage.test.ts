import { describe, expect, test } from "bun:test";
import type { Principal } from "../../src/access/principal.ts";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { errors } from "../../src/errors.ts";
import { createMeter } from "../../src/metering/create-meter.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import type { UsageEvent } from "../../src/metering/meter.ts";
import { usageRoute } from "../../src/http/v1/usage.ts";
import { createUsageLog } from "../../src/metering/usage-log.ts";
import { dailyCallsBySkill, recentCalls, usageReport } from "../../src/metering/usage-report.ts";
import { rotateKey, seedPrincipal } from "../support/accounts.ts";

const at = (iso: string) => Date.parse(iso);
let requests = 0;

function event(principal: Principal, iso: string, skill: string, status: number, receiptId: string | null = null): UsageEvent {
  return { at: at(iso), requestId: `req_${++requests}`, accountId: principal.accountId, keyId: principal.keyId, skill, status, latencyMs: 1.5, receiptId };
}

function rowCount(db: Db): number {
  return db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM usage_events").get()?.n ?? 0;
}

describe("usage log", () => {
  test("an answered call's row is part of the answer's transaction: a rollback takes it away", () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(db);
    db.$client.transaction(() => usage.recordAnswered(db, event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 200, "rcpt_1"))).immediate();
    expect(() =>
      db.$client
        .transaction(() => {
          usage.recordAnswered(db, event(principal, "2026-03-10T12:00:01Z", "rate-lookup", 200, "rcpt_2"));
          throw new Error("receipt failed");
        })
        .immediate(),
    ).toThrow();
    expect(rowCount(db)).toBe(1);
  });

  test("refusals wait in memory and are written by flush()", () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(db, { flushAfterMs: 60_000 });
    for (let i = 0; i < 3; i++) usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429));
    expect(rowCount(db)).toBe(0);
    usage.flush();
    expect(rowCount(db)).toBe(3);
  });

  test("a full batch is written without waiting for the timer, and the timer writes the rest", async () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(db, { flushAfterMs: 20, maxBuffered: 4 });
    for (let i = 0; i < 4; i++) usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 403));
    await Bun.sleep(5);
    expect(rowCount(db)).toBe(4);
    usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 403));
    expect(rowCount(db)).toBe(4);
    await Bun.sleep(200);
    expect(rowCount(db)).toBe(5);
  });

  test("a row that cannot be written does not take its batch down", () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(db);
    usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429));
    usage.recordRefused({ ...event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429), keyId: "key_that_never_existed" });
    usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429));
    usage.close();
    expect(rowCount(db)).toBe(2);
  });
});

function seededHistory() {
  const db = openMemoryDatabase();
  const principal = seedPrincipal(db, { tier: "starter" });
  const stranger = seedPrincipal(db, { tier: "starter" });
  const usage = createUsageLog(db);
  const record = (e: UsageEvent) => (e.status < 300 ? usage.recordAnswered(db, e) : usage.recordRefused(e));
  record(event(principal, "2026-02-28T23:59:59.999Z", "rate-lookup", 200, "rcpt_feb")); // last month
  record(event(principal, "2026-03-01T00:00:00.000Z", "rate-lookup", 200, "rcpt_a"));
  record(event(principal, "2026-03-01T23:59:59.999Z", "fuel-surcharge", 200, "rcpt_b"));
  record(event(principal, "2026-03-02T00:00:00.000Z", "rate-lookup", 429));
  record(event(principal, "2026-03-02T08:00:00.000Z", "rate-lookup", 400));
  const rotated = rotateKey(db, principal); // the month is the account's, whatever key made the call
  record(event(rotated, "2026-03-02T09:00:00.000Z", "rate-lookup", 200, "rcpt_c"));
  record(event(stranger, "2026-03-02T09:00:00.000Z", "rate-lookup", 200, "rcpt_x"));
  usage.flush();
  db.$client.run("INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, '2026-03', 3), (?, '2026-02', 1), (?, '2026-03', 1)", [
    principal.accountId,
    principal.accountId,
    stranger.accountId,
  ]);
  return { db, principal };
}

describe("usage report", () => {
  test("month to date: per skill answered and refused, quota used and remaining, the reset", async () => {
    const { db, principal } = seededHistory();
    expect(await usageReport(db, principal.accountId, at("2026-03-15T10:00:00Z"), DEFAULT_LIMITS.starter)).toEqual({
      month: "2026-03",
      period_start: at("2026-03-01T00:00:00Z") / 1000,
      reset: at("2026-04-01T00:00:00Z") / 1000,
      quota: { per_month: 2000, per_minute: 20, used: 3, remaining: 1997 },
      totals: { answered: 3, refused: 2 },
      skills: [
        { skill: "fuel-surcharge", answered: 1, refused: 0 },
        { skill: "rate-lookup", answered: 2, refused: 2 },
      ],
    });
  });

  test("an account without calls this month has its whole quota", async () => {
    const { db, principal } = seededHistory();
    const report = await usageReport(db, principal.accountId, at("2026-05-02T00:00:00Z"), DEFAULT_LIMITS.starter);
    expect(report.quota).toEqual({ per_month: 2000, per_minute: 20, used: 0, remaining: 2000 });
    expect(report.skills).toEqual([]);
  });

  test("daily calls by skill, split at UTC midnight", async () => {
    const { db, principal } = seededHistory();
    expect(await dailyCallsBySkill(db, principal.accountId, at("2026-03-01T00:00:00Z"), at("2026-04-01T00:00:00Z"))).toEqual([
      { day: "2026-03-01", skill: "fuel-surcharge", answered: 1, refused: 0 },
      { day: "2026-03-01", skill: "rate-lookup", answered: 1, refused: 0 },
      { day: "2026-03-02", skill: "rate-lookup", answered: 1, refused: 2 },
    ]);
  });

  test("recent calls, newest first, with the key that made them", async () => {
    const { db, principal } = seededHistory();
    const calls = await recentCalls(db, principal.accountId, 3);
    expect(calls.map((c) => [c.status, c.receiptId])).toEqual([
      [200, "rcpt_c"],
      [400, null],
      [429, null],
    ]);
    expect(calls[0]?.keyDisplayId).not.toBe(calls[1]?.keyDisplayId);
    expect(calls[0]).toMatchObject({ skill: "rate-lookup", at: at("2026-03-02T09:00:00Z"), latencyMs: 1.5 });
  });
});

describe("GET /v1/usage", () => {
  test("answers the caller's own month and the key's minute headroom", async () => {
    const { db, principal } = seededHistory();
    const clock = new ManualClock(at("2026-03-15T10:00:00Z"));
    const meter = createMeter({ db, limits: DEFAULT_LIMITS });
    meter.admit(principal, clock.now());
    const authenticate = (authorization: string | undefined) => {
      if (authorization !== "Bearer good") throw errors.invalidKey();
      return principal;
    };
    const app = usageRoute({ db, clock, limits: DEFAULT_LIMITS, meter }, authenticate);
    const response = await app.handle(new Request("http://localhost/v1/usage", { headers: { authorization: "Bearer good" } }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.quota).toEqual({ per_month: 2000, per_minute: 20, used: 3, remaining: 1997 });
    expect(body.minute).toEqual({ limit: 20, remaining: 19, reset: at("2026-03-15T10:01:00Z") / 1000 }); // the call turns 60 s old
    const refused = await app.handle(new Request("http://localhost/v1/usage", { headers: { authorization: "Bearer bad" } }));
    expect(refused.status).not.toBe(200);
  });
});
