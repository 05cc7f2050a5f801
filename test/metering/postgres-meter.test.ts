import { afterEach, describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { join } from "node:path";
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey, revokeActiveKey } from "../../src/access/keys.ts";
import type { Principal } from "../../src/access/principal.ts";
import type { Tier } from "../../src/access/tiers.ts";
import type { Store } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { openStore, type OpenStore } from "../../src/db/open.ts";
import { ApiError } from "../../src/errors.ts";
import { monthOf } from "../../src/metering/calendar.ts";
import { createPostgresMeter } from "../../src/metering/postgres-meter.ts";
import { parseLimits, type LimitsTable } from "../../src/metering/limits.ts";
import type { Meter } from "../../src/metering/meter.ts";
import { MINUTE_MS } from "../../src/metering/minute-window.ts";
import type { ReplicaOrder, ReplicaOutcome } from "../support/meter-replica.ts";
import { usePostgres } from "../support/postgres.ts";
import { defined } from "../support/defined.ts";

const postgres = usePostgres();
const opened: OpenStore[] = [];
const meters: Meter[] = [];
afterEach(async () => {
  for (const meter of meters.splice(0)) await meter.close();
  for (const handle of opened.splice(0)) await handle.close();
});

/** A replica's meter over `store`, closed after the test. */
function meterOn(store: Store, limits: LimitsTable): Meter {
  const meter = createPostgresMeter({ db: store, limits });
  meters.push(meter);
  return meter;
}

const at = (iso: string) => Date.parse(iso);
const NOW = at("2026-03-10T12:00:00Z");

async function database() {
  const url = await postgres.freshDatabase();
  const handle = await openStore({ dialect: "postgres", url });
  opened.push(handle);
  return { url, store: handle.store };
}

/** A second connection pool on the same database: another replica's view of it. */
async function replicaOf(url: string): Promise<Store> {
  const handle = await openStore({ dialect: "postgres", url });
  opened.push(handle);
  return handle.store;
}

let accounts = 0;
async function principalOn(store: Store, tier: Tier = "starter"): Promise<Principal> {
  const account = await createAccount(store, { email: `meter${++accounts}@example.test`, tier }, NOW);
  const issued = await issueKey(store, account.id, null, NOW);
  return { accountId: account.id, keyId: issued.record.id, authObjId: issued.record.authObjId, tier, scopes: null };
}

async function refusalOf(work: () => unknown): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal, the call was answered");
}

async function answer(meter: Meter, committer: GroupCommitter, principal: Principal, now: number) {
  const admission = await meter.admit(principal, now);
  try {
    return await committer.commit((tx) => admission.commit(tx));
  } catch (error) {
    admission.release();
    throw error;
  }
}

async function monthUsed(store: Store, principal: Principal, now = NOW): Promise<number> {
  const { monthlyUsage } = store.t;
  const [row] = await store
    .select({ answered: monthlyUsage.answered })
    .from(monthlyUsage)
    .where(and(eq(monthlyUsage.accountId, principal.accountId), eq(monthlyUsage.month, monthOf(now))));
  return row?.answered ?? 0;
}

async function setMonthUsed(store: Store, principal: Principal, answered: number) {
  await store.insert(store.t.monthlyUsage).values({ accountId: principal.accountId, month: monthOf(NOW), answered });
}

describe("the meter on PostgreSQL, in one process", () => {
  test("an answered call counts in the key's minute row and the account's month; the headers say so", async () => {
    const { store } = await database();
    const principal = await principalOn(store);
    const meter = meterOn(store, parseLimits('{"starter":{"per_minute":5,"per_month":100}}'));
    const committer = new GroupCommitter(store);
    const admission = await meter.admit(principal, NOW);
    expect(admission.headers).toEqual({
      "X-RateLimit-Limit": "5",
      "X-RateLimit-Remaining": "4",
      "X-RateLimit-Reset": String((NOW + MINUTE_MS) / 1000),
    });
    expect(await committer.commit((tx) => admission.commit(tx))).toEqual({ month: "2026-03", answered: 1, limit: 100 });
    expect(await monthUsed(store, principal)).toBe(1);
    const [row] = await store
      .select()
      .from(store.t.minuteWindows)
      .where(eq(store.t.minuteWindows.keyId, principal.keyId));
    expect(row?.admitted).toEqual([NOW]);
    const windows = await meter.windows(principal, NOW + 1000);
    expect(windows.minute).toEqual({ window: "minute", limit: 5, remaining: 4, resetAt: NOW + MINUTE_MS });
    expect(windows.month.remaining).toBe(99);
  });

  test("the minute is shared: a key's calls through two replicas never pass the limit, and Retry-After points at the opening", async () => {
    const { url, store } = await database();
    const other = await replicaOf(url);
    const limits = parseLimits('{"starter":{"per_minute":3,"per_month":1000}}');
    const principal = await principalOn(store);
    const [first, second] = [meterOn(store, limits), meterOn(other, limits)];
    await first.admit(principal, NOW);
    await second.admit(principal, NOW + 10_000);
    await first.admit(principal, NOW + 20_000);
    const refused = await refusalOf(() => second.admit(principal, NOW + 30_000));
    expect(refused.extra).toMatchObject({
      window: "minute",
      limit: 3,
      remaining: 0,
      reset: (NOW + MINUTE_MS) / 1000,
      retry_after: 30,
    });
    expect(refused.headers).toMatchObject({ "Retry-After": "30", "X-RateLimit-Remaining": "0" });
    // The refusal wrote nothing: the first call's minute ends on time and frees exactly one place.
    await second.admit(principal, NOW + MINUTE_MS);
    expect((await refusalOf(() => first.admit(principal, NOW + MINUTE_MS))).extra.window).toBe("minute");
    expect((await first.windows(principal, NOW + MINUTE_MS)).minute.remaining).toBe(0);
  });

  test("above 60 a minute, calls of one second share a group that counts whole until its newest call is a minute old", async () => {
    const { url, store } = await database();
    const other = await replicaOf(url);
    const limit = 100;
    const limits = parseLimits(`{"starter":{"per_minute":${limit},"per_month":100000}}`);
    const principal = await principalOn(store);
    const [here, there] = [meterOn(store, limits), meterOn(other, limits)];
    // NOW is on a second: 60 calls at +200 ms and 40 at +900 ms, through two replicas, are one group.
    for (let i = 0; i < 60; i++) await here.admit(principal, NOW + 200);
    for (let i = 0; i < 40; i++) await there.admit(principal, NOW + 900);
    const row = async () => {
      const [found] = await store
        .select()
        .from(store.t.minuteWindows)
        .where(eq(store.t.minuteWindows.keyId, principal.keyId));
      return { admitted: found?.admitted, calls: found && [...found.calls] };
    };
    expect(await row()).toEqual({ admitted: [NOW + 900], calls: [limit] });
    // The next second starts a group of its own, and the minute is full for both replicas.
    const full = await refusalOf(() => there.admit(principal, NOW + 1000));
    expect(full.extra).toMatchObject({ window: "minute", remaining: 0, reset: NOW / 1000 + 61 });
    // The calls made at +200 ms would have left the window at +60.2 s: their group has not.
    const early = await refusalOf(() => here.admit(principal, NOW + MINUTE_MS + 899));
    expect(early.extra).toMatchObject({ window: "minute", limit, remaining: 0 });
    expect(early.headers["Retry-After"]).toBe("1");
    // At +60.9 s the whole group has left: the full limit is free again, and the old group is dropped.
    await there.admit(principal, NOW + MINUTE_MS + 900);
    const admitted = await here.admit(principal, NOW + MINUTE_MS + 1000);
    // A counted call's headers: the calls inside the minute, and when its oldest group leaves.
    expect(admitted.headers).toMatchObject({
      "X-RateLimit-Remaining": String(limit - 2),
      "X-RateLimit-Reset": String(Math.ceil((NOW + 2 * MINUTE_MS + 900) / 1000)),
    });
    expect(await row()).toEqual({ admitted: [NOW + MINUTE_MS + 900, NOW + MINUTE_MS + 1000], calls: [1, 1] });
    expect((await there.windows(principal, NOW + MINUTE_MS + 1000)).minute).toEqual({
      window: "minute",
      limit,
      remaining: limit - 2,
      resetAt: NOW + 2 * MINUTE_MS + 900,
    });
  });

  test("at a limit of 60 a minute or less every call keeps its own instant", async () => {
    const { store } = await database();
    const principal = await principalOn(store);
    const meter = meterOn(store, parseLimits('{"starter":{"per_minute":60,"per_month":100000}}'));
    await meter.admit(principal, NOW + 200);
    await meter.admit(principal, NOW + 900);
    const [row] = await store
      .select()
      .from(store.t.minuteWindows)
      .where(eq(store.t.minuteWindows.keyId, principal.keyId));
    expect({ admitted: row?.admitted, calls: row && [...row.calls] }).toEqual({
      admitted: [NOW + 200, NOW + 900],
      calls: [1, 1],
    });
  });

  test("a key revoked through another replica is refused at admission, before any notification, and nothing is counted", async () => {
    const { url, store } = await database();
    const other = await replicaOf(url);
    const principal = await principalOn(store);
    const meter = meterOn(store, parseLimits('{"starter":{"per_minute":5,"per_month":100}}'));
    await meter.admit(principal, NOW);
    // This meter's process holds the grant as it was; the revoke commits through the other pool.
    await revokeActiveKey(other, principal.accountId, NOW + 1);
    const refused = await refusalOf(() => meter.admit(principal, NOW + 2));
    expect(refused.body("req").error).toBe("REVOKED_API_KEY");
    const [row] = await store
      .select()
      .from(store.t.minuteWindows)
      .where(eq(store.t.minuteWindows.keyId, principal.keyId));
    expect(row?.admitted).toEqual([NOW]);
  });

  test("a month used up by another replica meanwhile refuses the commit with the month's 429, and counts nothing", async () => {
    const { url, store } = await database();
    const other = await replicaOf(url);
    const limits = parseLimits('{"starter":{"per_minute":100,"per_month":10}}');
    const principal = await principalOn(store);
    await setMonthUsed(store, principal, 9);
    const [here, there] = [meterOn(store, limits), meterOn(other, limits)];
    const late = await here.admit(principal, NOW); // both see one call left
    const early = await there.admit(principal, NOW);
    expect(await new GroupCommitter(other).commit((tx) => early.commit(tx))).toMatchObject({ answered: 10, limit: 10 });
    const committer = new GroupCommitter(store);
    const refused = await refusalOf(() => committer.commit((tx) => late.commit(tx)));
    late.release();
    expect(refused.extra).toMatchObject({
      window: "month",
      limit: 10,
      remaining: 0,
      reset: at("2026-04-01T00:00:00Z") / 1000,
    });
    expect(refused.headers["Retry-After"]).toBe(String((at("2026-04-01T00:00:00Z") - NOW) / 1000));
    expect(await monthUsed(store, principal)).toBe(10);
    // Now the month is seen as used up at admission, before any handler runs.
    expect((await refusalOf(() => here.admit(principal, NOW + 1))).extra.window).toBe("month");
    expect((await here.peek(principal, NOW + 1))["X-RateLimit-Remaining"]).toBe("0");
  });

  test("in one batch, the call that finds the month used up fails alone; the others commit", async () => {
    const { store } = await database();
    const limits = parseLimits('{"starter":{"per_minute":100,"per_month":5}}');
    const principal = await principalOn(store);
    await setMonthUsed(store, principal, 2);
    // Three meters stand for three replicas that each saw three calls left.
    const replicas = [0, 1, 2].map(() => meterOn(store, limits));
    const admissions = await Promise.all(replicas.map((meter) => meter.admit(principal, NOW)));
    admissions.push(
      await defined(replicas[0], "replicas[0]").admit(principal, NOW),
      await defined(replicas[1], "replicas[1]").admit(principal, NOW),
    );
    const committer = new GroupCommitter(store);
    const outcomes = await Promise.allSettled(
      admissions.map((admission) => committer.commit((tx) => admission.commit(tx))),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(3);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as ApiError] : []));
    expect(refusals.map((error) => [error.status, error.extra.window])).toEqual([
      [429, "month"],
      [429, "month"],
    ]);
    expect(await monthUsed(store, principal)).toBe(5);
  });
  test("a batch raises the month once per account; calls past the room another replica left get 429, in batch order", async () => {
    const { store } = await database();
    const limits = parseLimits('{"starter":{"per_minute":100,"per_month":10}}');
    const principal = await principalOn(store);
    await setMonthUsed(store, principal, 4);
    const [here, there] = [meterOn(store, limits), meterOn(store, limits)];
    const committer = new GroupCommitter(store);
    if (here.batch) committer.join(here.batch);
    // This replica admits five calls (it sees six left); meanwhile the other answers three.
    const admissions = [];
    for (let i = 0; i < 5; i++) admissions.push(await here.admit(principal, NOW + i));
    for (let i = 0; i < 3; i++) await answer(there, new GroupCommitter(store), principal, NOW);
    const outcomes = await Promise.allSettled(
      admissions.map((admission) => committer.commit((tx) => admission.commit(tx))),
    );
    expect(committer.stats().batches).toBe(1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "fulfilled",
      "rejected",
      "rejected",
    ]);
    for (const outcome of outcomes.slice(3)) {
      const error = (outcome as PromiseRejectedResult).reason as ApiError;
      expect([error.status, error.extra.window]).toEqual([429, "month"]);
    }
    expect(await monthUsed(store, principal)).toBe(10);
    // 80 % (the 8th call) and 100 % (the 10th) were reached by this batch's first and third calls: one event each.
    const { events } = store.t;
    const reached = await store
      .select({ payload: events.payload, at: events.createdAt })
      .from(events)
      .where(and(eq(events.accountId, principal.accountId), eq(events.type, "quota.threshold")))
      .orderBy(events.createdAt);
    expect(reached).toEqual([
      { payload: { month: "2026-03", percent: 80, answered: 8, limit: 10 }, at: NOW },
      { payload: { month: "2026-03", percent: 100, answered: 10, limit: 10 }, at: NOW + 2 },
    ]);
  });
});

/** Run one wave: `processes` replicas, each making `calls` concurrent calls at `now`, started together. */
async function wave(
  order: Omit<ReplicaOrder, "startAt" | "now">,
  processes: number,
  now: number,
): Promise<ReplicaOutcome[]> {
  const startAt = Date.now() + 1500; // every process connected and waiting by then
  const children = Array.from({ length: processes }, () =>
    Bun.spawn(
      [
        process.execPath,
        join(import.meta.dir, "../support/meter-replica.ts"),
        JSON.stringify({ ...order, now, startAt }),
      ],
      {
        stdout: "pipe",
        stderr: "pipe",
      },
    ),
  );
  return Promise.all(
    children.map(async (child) => {
      const [out, err, status] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      if (status !== 0) throw new Error(`meter replica exited with ${status}: ${err}`);
      const outcome = JSON.parse(
        defined(out.trim().split("\n").at(-1), 'the last of out.trim().split("\\n")'),
      ) as ReplicaOutcome;
      expect(outcome.errors).toEqual([]);
      return outcome;
    }),
  );
}

const total = (outcomes: ReplicaOutcome[], pick: (outcome: ReplicaOutcome) => number) =>
  outcomes.reduce((sum, outcome) => sum + pick(outcome), 0);

describe("the meter on PostgreSQL, across three processes hammering one key", () => {
  test("with L calls left in the month, exactly L of 90 concurrent calls are answered", async () => {
    const { url, store } = await database();
    const principal = await principalOn(store);
    const left = 37;
    await setMonthUsed(store, principal, 500 - left);
    const outcomes = await wave(
      { url, principal, limits: '{"starter":{"per_minute":100000,"per_month":500}}', calls: 30 },
      3,
      NOW,
    );
    expect(total(outcomes, (outcome) => outcome.answered)).toBe(left);
    expect(total(outcomes, (outcome) => outcome.refused.month)).toBe(90 - left);
    expect(total(outcomes, (outcome) => outcome.refused.minute)).toBe(0);
    expect(await monthUsed(store, principal)).toBe(500);
    const [rows] = await store
      .select({ n: count() })
      .from(store.t.receipts)
      .where(eq(store.t.receipts.keyId, principal.keyId));
    expect(defined(rows, "rows").n).toBe(left);
  }, 60_000);

  // 5: one instant per call; 70: calls of one second share a group (src/metering/minute-groups.ts).
  for (const [limit, calls] of [
    [5, 4],
    [70, 30],
  ] as const) {
    test(`never more than the minute's limit (${limit}) in any rolling 60 s, whichever process each call hits`, async () => {
      const { url, store } = await database();
      const principal = await principalOn(store);
      const order = { url, principal, limits: `{"starter":{"per_minute":${limit},"per_month":100000}}`, calls };
      // Waves 25 s apart, 3 × calls each (more than the limit): a rolling minute spans three waves at most.
      const admitted: number[] = [];
      for (let n = 0; n < 6; n++) {
        const now = NOW + n * 25_000;
        const outcomes = await wave(order, 3, now);
        for (let i = 0; i < total(outcomes, (outcome) => outcome.answered); i++) admitted.push(now);
        expect(total(outcomes, (outcome) => outcome.answered + outcome.refused.minute)).toBe(3 * calls);
      }
      // Each window (t - 60 s, t] holds at most `limit` admitted instants...
      for (let i = 0; i + limit < admitted.length; i++)
        expect(
          defined(admitted[i + limit], "admitted[i + limit]") - defined(admitted[i], "admitted[i]"),
        ).toBeGreaterThanOrEqual(MINUTE_MS);
      // ...and the limit is reached whenever it may be: `limit` at 0 s and at 75 s (0 s has aged out), 0 else.
      expect(admitted).toEqual([...Array(limit).fill(NOW), ...Array(limit).fill(NOW + 75_000)]);
      expect(await monthUsed(store, principal)).toBe(2 * limit);
    }, 120_000);
  }
});
