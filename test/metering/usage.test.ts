import { describe, expect, test } from "bun:test";
import type { Principal } from "../../src/access/principal.ts";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { errors } from "../../src/errors.ts";
import { awaitedMeter, createMemoryMeter } from "../../src/metering/create-meter.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import type { UsageEvent } from "../../src/metering/meter.ts";
import { usageRoute } from "../../src/http/routes/v1/usage.ts";
import { createUsageLog } from "../../src/metering/usage-log.ts";
import { sqliteUsageWrites } from "../../src/metering/usage-writes.ts";
import { dailyCallsBySkill, monthCalls, recentCalls, usageReport } from "../../src/metering/usage-report.ts";
import { lastUseOfKey } from "../../src/dashboard/queries.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { openLedger, sampleEntry } from "../receipts/fixtures.ts";
import { rotateKey, seedPrincipal } from "../support/accounts.ts";

const at = (iso: string) => Date.parse(iso);
let requests = 0;

function event(
  principal: Principal,
  iso: string,
  skill: string,
  status: number,
  receiptId: string | null = null,
): UsageEvent {
  return {
    at: at(iso),
    requestId: `req_${++requests}`,
    accountId: principal.accountId,
    keyId: principal.keyId,
    skill,
    status,
    latencyMs: 1.5,
    receiptId,
  };
}

function rowCount(db: Db): number {
  return db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM usage_events").get()?.n ?? 0;
}

const lastAnsweredAt = (db: Db, keyId: string) =>
  db.$client
    .query<{ at: number | null }, [string]>("SELECT last_answered_at AS at FROM api_keys WHERE id = ?")
    .get(keyId)?.at;

/** A usage row as an answered call wrote it before migration 0008 (old files keep them). */
function legacyAnsweredRow(db: Db, e: UsageEvent): void {
  db.$client.run(
    "INSERT INTO usage_events (at, request_id, account_id, key_id, skill, status, latency_ms, receipt_id) VALUES (?, ?, ?, ?, ?, 200, ?, ?)",
    [e.at, e.requestId, e.accountId, e.keyId, e.skill, e.latencyMs, e.receiptId],
  );
}

describe("usage log", () => {
  test("an answered call writes no usage row; its key's last use is written once per batch, and a rolled-back write's is forgotten", async () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(sqliteUsageWrites(db));
    const committer = new GroupCommitter(db);
    committer.join(usage.batch);
    const outcomes = await Promise.allSettled([
      committer.commit((tx) => usage.recordAnswered(tx, principal.keyId, at("2026-03-10T12:00:00Z"))),
      committer.commit((tx) => usage.recordAnswered(tx, principal.keyId, at("2026-03-10T12:00:02Z"))),
      committer.commit((tx) => {
        usage.recordAnswered(tx, principal.keyId, at("2026-03-10T12:00:05Z"));
        throw new Error("receipt failed");
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect(lastAnsweredAt(db, principal.keyId)).toBe(at("2026-03-10T12:00:02Z"));
    expect(rowCount(db)).toBe(0);
    // Outside a batch it is written at once, and never moves back.
    db.$client.transaction(() => usage.recordAnswered(db, principal.keyId, at("2026-03-10T11:00:00Z"))).immediate();
    expect(lastAnsweredAt(db, principal.keyId)).toBe(at("2026-03-10T12:00:02Z"));
  });

  test("refusals wait in memory and are written by flush()", async () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(sqliteUsageWrites(db), { flushAfterMs: 60_000 });
    for (let i = 0; i < 3; i++) usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429));
    expect(rowCount(db)).toBe(0);
    await usage.flush();
    expect(rowCount(db)).toBe(3);
  });

  test("a full batch is written without waiting for the timer, and the timer writes the rest", async () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(sqliteUsageWrites(db), { flushAfterMs: 20, maxBuffered: 4 });
    for (let i = 0; i < 4; i++) usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 403));
    await Bun.sleep(5);
    expect(rowCount(db)).toBe(4);
    usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 403));
    expect(rowCount(db)).toBe(4);
    await Bun.sleep(200);
    expect(rowCount(db)).toBe(5);
  });

  test("a row that cannot be written does not take its batch down", async () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db, { tier: "explorer" });
    const usage = createUsageLog(sqliteUsageWrites(db));
    usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429));
    usage.recordRefused({
      ...event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429),
      keyId: "key_that_never_existed",
    });
    usage.recordRefused(event(principal, "2026-03-10T12:00:00Z", "rate-lookup", 429));
    await usage.close();
    expect(rowCount(db)).toBe(2);
  });
});

/**
 * A month of calls as a file upgraded across migration 0008 holds them: answered calls from before it
 * as usage rows, answered calls since as receipts carrying their usage, refusals as usage rows.
 */
async function seededHistory() {
  const db = openMemoryDatabase();
  const principal = seedPrincipal(db, { tier: "starter" });
  const stranger = seedPrincipal(db, { tier: "starter" });
  const usage = createUsageLog(sqliteUsageWrites(db));
  const { append } = await openLedger(db);
  const answer = async (who: Principal, iso: string, skill: string) =>
    (
      await append(
        sampleEntry(who, {
          skill,
          issuedAt: at(iso) + 3,
          knownAt: at(iso),
          usage: { requestId: `req_${++requests}`, latencyMs: 1.5 },
        }),
      )
    ).id;
  legacyAnsweredRow(db, event(principal, "2026-02-28T23:59:59.999Z", "rate-lookup", 200, "rcpt_feb")); // last month
  legacyAnsweredRow(db, event(principal, "2026-03-01T00:00:00.000Z", "rate-lookup", 200, "rcpt_a"));
  await answer(principal, "2026-03-01T23:59:59.999Z", "fuel-surcharge");
  usage.recordRefused(event(principal, "2026-03-02T08:00:00.000Z", "rate-lookup", 429));
  usage.recordRefused(event(principal, "2026-03-02T08:00:00.000Z", "rate-lookup", 400));
  await answer(principal, "2026-03-02T08:30:00.000Z", "rate-alerts.create"); // counted under its skill
  const rotated = rotateKey(db, principal); // the month is the account's, whatever key made the call
  const newest = await answer(rotated, "2026-03-02T09:00:00.000Z", "rate-lookup");
  await answer(stranger, "2026-03-02T09:00:00.000Z", "rate-lookup");
  await answer(principal, "2026-04-01T00:00:00.000Z", "rate-lookup"); // next month
  await usage.flush();
  db.$client.run(
    "INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, '2026-03', 4), (?, '2026-02', 1), (?, '2026-03', 1)",
    [principal.accountId, principal.accountId, stranger.accountId],
  );
  return { db, principal, rotated, newest };
}

describe("usage report", () => {
  test("month to date: per skill answered and refused, quota used and remaining, the reset", async () => {
    const { db, principal } = await seededHistory();
    expect(await usageReport(db, principal.accountId, at("2026-03-15T10:00:00Z"), DEFAULT_LIMITS.starter)).toEqual({
      month: "2026-03",
      period_start: at("2026-03-01T00:00:00Z") / 1000,
      reset: at("2026-04-01T00:00:00Z") / 1000,
      quota: { per_month: 2000, per_minute: 20, used: 4, remaining: 1996 },
      totals: { answered: 4, refused: 2 },
      skills: [
        { skill: "fuel-surcharge", answered: 1, refused: 0 },
        { skill: "rate-alerts", answered: 1, refused: 0 },
        { skill: "rate-lookup", answered: 2, refused: 2 },
      ],
    });
  });

  test("an account without calls this month has its whole quota", async () => {
    const { db, principal } = await seededHistory();
    const report = await usageReport(db, principal.accountId, at("2026-06-02T00:00:00Z"), DEFAULT_LIMITS.starter);
    expect(report.quota).toEqual({ per_month: 2000, per_minute: 20, used: 0, remaining: 2000 });
    expect(report.skills).toEqual([]);
  });

  test("daily calls by skill, split at UTC midnight", async () => {
    const { db, principal } = await seededHistory();
    expect(
      await dailyCallsBySkill(db, principal.accountId, at("2026-03-01T00:00:00Z"), at("2026-04-01T00:00:00Z")),
    ).toEqual([
      { day: "2026-03-01", skill: "fuel-surcharge", answered: 1, refused: 0 },
      { day: "2026-03-01", skill: "rate-lookup", answered: 1, refused: 0 },
      { day: "2026-03-02", skill: "rate-alerts", answered: 1, refused: 0 },
      { day: "2026-03-02", skill: "rate-lookup", answered: 1, refused: 2 },
    ]);
  });

  test("recent calls, newest first, with the key that made them, from receipts and usage rows alike", async () => {
    const { db, principal, newest } = await seededHistory();
    const calls = await recentCalls(db, principal.accountId, 5);
    expect(calls.map((c) => [c.at, c.status, c.skill])).toEqual([
      [at("2026-04-01T00:00:00Z"), 200, "rate-lookup"],
      [at("2026-03-02T09:00:00Z"), 200, "rate-lookup"],
      [at("2026-03-02T08:30:00Z"), 200, "rate-alerts"],
      [at("2026-03-02T08:00:00Z"), 400, "rate-lookup"],
      [at("2026-03-02T08:00:00Z"), 429, "rate-lookup"],
    ]);
    expect(calls[1]).toMatchObject({ receiptId: newest, latencyMs: 1.5 });
    expect(calls[1]?.requestId).toMatch(/^req_/);
    expect(calls[1]?.keyDisplayId).not.toBe(calls[2]?.keyDisplayId);
    expect(calls[3]?.receiptId).toBeNull();
  });

  test("the month's calls for the CSV, oldest first: the usage row from before the upgrade, then receipts and refusals by time", async () => {
    const { db, principal, newest } = await seededHistory();
    const calls = await monthCalls(db, principal.accountId, at("2026-03-20T00:00:00Z"));
    expect(calls.map((c) => [c.at, c.status, c.skill, c.receiptId?.startsWith("rcpt_") ?? null])).toEqual([
      [at("2026-03-01T00:00:00Z"), 200, "rate-lookup", true],
      [at("2026-03-01T23:59:59.999Z"), 200, "fuel-surcharge", true],
      [at("2026-03-02T08:00:00Z"), 429, "rate-lookup", null],
      [at("2026-03-02T08:00:00Z"), 400, "rate-lookup", null],
      [at("2026-03-02T08:30:00Z"), 200, "rate-alerts", true],
      [at("2026-03-02T09:00:00Z"), 200, "rate-lookup", true],
    ]);
    expect(calls.at(-1)?.receiptId).toBe(newest);
  });

  test("a key's last use: its newest answered call or its newest usage row, whichever is later", async () => {
    const { db, principal, rotated } = await seededHistory();
    db.$client.run("UPDATE api_keys SET last_answered_at = ? WHERE id = ?", [
      at("2026-03-01T23:59:59.999Z"),
      principal.keyId,
    ]);
    expect(await lastUseOfKey(db, principal.keyId)).toBe(at("2026-03-02T08:00:00Z")); // its refusals came later
    db.$client.run("UPDATE api_keys SET last_answered_at = ? WHERE id = ?", [
      at("2026-03-03T00:00:00Z"),
      principal.keyId,
    ]);
    expect(await lastUseOfKey(db, principal.keyId)).toBe(at("2026-03-03T00:00:00Z"));
    const unused = seedPrincipal(db);
    expect(await lastUseOfKey(db, unused.keyId)).toBeNull();
    expect(rotated.keyId).not.toBe(principal.keyId);
  });
});

describe("GET /v1/usage", () => {
  test("answers the caller's own month and the key's minute headroom", async () => {
    const { db, principal } = await seededHistory();
    const clock = new ManualClock(at("2026-03-15T10:00:00Z"));
    const meter = createMemoryMeter({ db, limits: DEFAULT_LIMITS });
    meter.admit(principal, clock.now());
    const authenticate = async (authorization: string | undefined) => {
      if (authorization !== "Bearer good") throw errors.invalidKey();
      return principal;
    };
    const app = usageRoute({ db, clock, limits: DEFAULT_LIMITS, meter: awaitedMeter(meter) }, authenticate);
    const response = await app.handle(
      new Request("http://localhost/v1/usage", { headers: { authorization: "Bearer good" } }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.quota).toEqual({ per_month: 2000, per_minute: 20, used: 4, remaining: 1996 });
    expect(body.minute).toEqual({ limit: 20, remaining: 19, reset: at("2026-03-15T10:01:00Z") / 1000 }); // the call turns 60 s old
    const refused = await app.handle(
      new Request("http://localhost/v1/usage", { headers: { authorization: "Bearer bad" } }),
    );
    expect(refused.status).not.toBe(200);
  });
});
