import { afterEach, describe, expect, test } from "bun:test";
import { createAccount } from "../../src/access/accounts.ts";
import { postgresKeyIndex } from "../../src/access/key-index.ts";
import { issueKey } from "../../src/access/keys.ts";
import type { Principal } from "../../src/access/principal.ts";
import { ManualClock } from "../../src/clock.ts";
import type { Store } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { openStore, type OpenStore } from "../../src/db/open.ts";
import { createIdempotencyStore } from "../../src/http/routes/v1/idempotency.ts";
import { createPostgresMeter } from "../../src/metering/postgres-meter.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import type { Meter, UsageEvent } from "../../src/metering/meter.ts";
import { createUsageLog } from "../../src/metering/usage-log.ts";
import { postgresUsageWrites } from "../../src/metering/usage-writes.ts";
import { postgresStoreOf } from "../../src/db/postgres.ts";
import { lastUseOfKey } from "../../src/dashboard/queries.ts";
import { openReceiptLedger } from "../../src/receipts/receipt-ledger.ts";
import { sampleEntry } from "../receipts/fixtures.ts";
import { count, eq } from "drizzle-orm";
import { dailyCallsBySkill, monthCalls, recentCalls, usageReport } from "../../src/metering/usage-report.ts";
import type { SkillCall, SkillReply } from "../../src/pipeline/run-skill.ts";
import type { AnySkill } from "../../src/skills/types.ts";
import { usePostgres } from "../support/postgres.ts";
import { defined } from "../support/defined.ts";
import { portableLedgerStorage } from "../../src/receipts/ledger-storage.ts";

const postgres = usePostgres();
const at = (iso: string) => Date.parse(iso);
const NOW = at("2026-03-02T12:00:00Z");

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(url: string): Promise<Store> {
  const handle: OpenStore = await openStore({ dialect: "postgres", url });
  cleanups.push(() => handle.close());
  return handle.store;
}

async function principalOn(store: Store, key: string): Promise<Principal & { key: string }> {
  const account = await createAccount(store, { email: `${key}@example.test`, tier: "starter" }, NOW);
  const issued = await issueKey(store, account.id, null, NOW);
  return {
    key: issued.key,
    accountId: account.id,
    keyId: issued.record.id,
    authObjId: issued.record.authObjId,
    tier: "starter",
    scopes: null,
  };
}

let requests = 0;
const event = (
  principal: Principal,
  iso: string,
  skill: string,
  status: number,
  receiptId: string | null = null,
): UsageEvent => ({
  at: at(iso),
  requestId: `req_${++requests}`,
  accountId: principal.accountId,
  keyId: principal.keyId,
  skill,
  status,
  latencyMs: 1.5,
  receiptId,
});

describe("usage and its reports on PostgreSQL", () => {
  test("answered calls' receipts carry their usage, refusals are flushed together, and the reports add both to the rows from before the upgrade", async () => {
    const store = await open(await postgres.freshDatabase());
    const principal = await principalOn(store, "usage");
    const usage = createUsageLog(postgresUsageWrites(postgresStoreOf(store)), { flushAfterMs: 60_000 });
    const ledger = await openReceiptLedger(store, portableLedgerStorage(store), {
      clock: new ManualClock(NOW),
      origin: "waybill.test/log",
    });
    const committer = new GroupCommitter(store);
    for (const participant of [ledger.log, ledger.parts, usage.batch]) committer.join(participant);
    const answer = (iso: string, skill: string, fail = false) =>
      committer.commit(async (tx) => {
        const entry = sampleEntry(principal, {
          skill,
          issuedAt: at(iso),
          knownAt: at(iso),
          usage: { requestId: `req_${++requests}`, latencyMs: 1.5 },
        });
        const receipt = await ledger.append(tx, entry);
        await usage.recordAnswered(tx, principal.keyId, at(iso));
        if (fail) throw new Error("the answer failed");
        return receipt.id;
      });
    // An answered call from before migration 0003 left a usage row.
    await store
      .insert(store.t.usageEvents)
      .values(event(principal, "2026-03-01T08:00:00Z", "rate-lookup", 200, "rcpt_a"));
    const outcomes = await Promise.allSettled([
      answer("2026-03-01T09:00:00Z", "fuel-surcharge"),
      answer("2026-03-02T09:00:00Z", "rate-lookup"),
      answer("2026-03-02T10:00:00Z", "rate-lookup", true),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    const [b, c] = outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : null)) as [
      string,
      string,
      null,
    ];
    usage.recordRefused(event(principal, "2026-03-02T08:00:00Z", "rate-lookup", 429));
    usage.recordRefused(event(principal, "2026-03-02T08:30:00Z", "rate-lookup", 400));
    await usage.flush();
    await store.insert(store.t.monthlyUsage).values({ accountId: principal.accountId, month: "2026-03", answered: 3 });

    const report = await usageReport(store, principal.accountId, at("2026-03-15T00:00:00Z"), DEFAULT_LIMITS.starter);
    expect(report).toMatchObject({
      month: "2026-03",
      quota: { per_month: 2000, per_minute: 20, used: 3, remaining: 1997 },
      totals: { answered: 3, refused: 2 },
      skills: [
        { skill: "fuel-surcharge", answered: 1, refused: 0 },
        { skill: "rate-lookup", answered: 2, refused: 2 },
      ],
    });
    expect(
      await dailyCallsBySkill(store, principal.accountId, at("2026-03-01T00:00:00Z"), at("2026-04-01T00:00:00Z")),
    ).toEqual([
      { day: "2026-03-01", skill: "fuel-surcharge", answered: 1, refused: 0 },
      { day: "2026-03-01", skill: "rate-lookup", answered: 1, refused: 0 },
      { day: "2026-03-02", skill: "rate-lookup", answered: 1, refused: 2 },
    ]);
    const recent = await recentCalls(store, principal.accountId, 2);
    expect(recent.map((call) => [call.status, call.receiptId, call.at, call.latencyMs])).toEqual([
      [200, c, at("2026-03-02T09:00:00Z"), 1.5],
      [400, null, at("2026-03-02T08:30:00Z"), 1.5],
    ]);
    expect((await monthCalls(store, principal.accountId, NOW)).map((call) => call.receiptId)).toEqual([
      "rcpt_a",
      b,
      null,
      null,
      c,
    ]);
    expect(await lastUseOfKey(store, principal.keyId)).toBe(at("2026-03-02T09:00:00Z")); // not the rolled-back answer's
    expect(await store.select({ n: count() }).from(store.t.usageEvents)).toEqual([{ n: 3 }]); // no row for an answer since
  });

  test("one batch writes the last use of each of its keys, each only forward", async () => {
    const store = await open(await postgres.freshDatabase());
    const [a, b, c] = [await principalOn(store, "a"), await principalOn(store, "b"), await principalOn(store, "c")];
    const usage = createUsageLog(postgresUsageWrites(postgresStoreOf(store)), { flushAfterMs: 60_000 });
    const committer = new GroupCommitter(store);
    committer.join(usage.batch);
    // c was last used later than this batch's call (another replica's batch, say): it stays.
    await store
      .update(store.t.apiKeys)
      .set({ lastAnsweredAt: at("2026-03-02T11:00:00Z") })
      .where(eqKey(store, c.keyId));
    await Promise.all(
      [
        [a, "2026-03-02T09:00:00Z"],
        [b, "2026-03-02T09:30:00Z"],
        [a, "2026-03-02T09:45:00Z"],
        [c, "2026-03-02T10:00:00Z"],
        [b, "2026-03-02T09:10:00Z"],
      ].map(([principal, iso]) =>
        committer.commit((tx) => usage.recordAnswered(tx, (principal as Principal).keyId, at(iso as string))),
      ),
    );
    expect(committer.stats()).toEqual({ batches: 1, writes: 5 });
    expect([
      await lastUseOfKey(store, a.keyId),
      await lastUseOfKey(store, b.keyId),
      await lastUseOfKey(store, c.keyId),
    ]).toEqual([at("2026-03-02T09:45:00Z"), at("2026-03-02T09:30:00Z"), at("2026-03-02T11:00:00Z")]);
  });
});

const eqKey = (store: Store, keyId: string) => eq(store.t.apiKeys.id, keyId);

describe("idempotency records across replicas on PostgreSQL", () => {
  test("the same Idempotency-Key sent to two replicas at once is answered once; the other replays it", async () => {
    const url = await postgres.freshDatabase();
    const stores = [await open(url), await open(url)] as const;
    const principal = await principalOn(stores[0], "idem");
    const clock = new ManualClock(NOW);
    const meters: Meter[] = [];
    let answers = 0;
    const replicas = stores.map((store) => {
      const meter = createPostgresMeter({ db: store, limits: DEFAULT_LIMITS });
      meters.push(meter);
      const keys = postgresKeyIndex(store);
      const committer = new GroupCommitter(store);
      const deps = { db: store, clock, keys, meter, refreshCaches: () => {} } as unknown as Parameters<
        typeof createIdempotencyStore
      >[0];
      const idempotency = createIdempotencyStore(deps);
      /** The pipeline's part, reduced to what idempotency relies on: an answer whose record commits with it. */
      const execute = async (call: SkillCall): Promise<SkillReply> => {
        const body = { answer: answers + 1, receipt_id: `rcpt_${++answers}` };
        try {
          await committer.commit(async (tx) => {
            await Bun.sleep(20); // both replicas are inside their answer's transaction at once
            await call.alsoInAnswerTransaction?.(tx, principal, body);
          });
          return { status: 200, body, headers: {}, principal };
        } catch {
          return { status: 500, body: { error: "INTERNAL_ERROR" }, headers: {}, principal };
        }
      };
      return {
        keys,
        run: (call: SkillCall) => idempotency.run({ name: "rate-lookup" } as AnySkill, "order-7781", call, execute),
      };
    });
    cleanups.push(async () => {
      for (const meter of meters) await meter.close();
    });
    for (const replica of replicas) await replica.keys.pending();
    const call = (): SkillCall => ({
      requestId: `req_${++requests}`,
      authorization: `Bearer ${principal.key}`,
      readInput: async () => ({ origin: "Chicago, IL", destination: "Dallas, TX" }),
      inputSource: "body",
    });
    const replies = await Promise.all(replicas.map((replica) => replica.run(call())));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    const [one, other] = [defined(replies[0], "the first reply"), defined(replies[1], "the second reply")];
    expect(one.body.receipt_id).toBe(other.body.receipt_id);
    expect(replies.filter((reply) => reply.headers["Idempotency-Replayed"] === "true")).toHaveLength(1);
    const stored = await stores[0].select().from(stores[0].t.idempotentAnswers);
    expect(stored.map((row) => row.receiptId)).toEqual([String(one.body.receipt_id)]);
  });
});
