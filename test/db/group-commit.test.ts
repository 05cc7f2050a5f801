import { expect, test } from "bun:test";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { inTransaction } from "../../src/db/transaction.ts";
import { sqliteUsageWrites } from "../../src/metering/usage-writes.ts";
import { sqliteProbe } from "../../src/ops/readiness.ts";
import { seedPrincipal } from "../support/accounts.ts";

function setup() {
  const db = openMemoryDatabase();
  db.$client.run("CREATE TABLE t (n INTEGER PRIMARY KEY)");
  const insert = db.$client.prepare("INSERT INTO t (n) VALUES (?)");
  const count = () => (db.$client.query("SELECT count(*) AS c FROM t").get() as { c: number }).c;
  return { db, committer: new GroupCommitter(db), insert, count };
}

test("writes queued in one turn of the event loop commit together, and each settles after the commit", async () => {
  const { committer, insert, count } = setup();
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, n) =>
      committer.commit(() => {
        insert.run(n);
        return n * 2;
      }),
    ),
  );
  expect(results).toEqual(Array.from({ length: 50 }, (_, n) => n * 2));
  expect(count()).toBe(50);
  expect(committer.stats()).toEqual({ batches: 1, writes: 50 });
});

test("a failing write rolls back alone; its neighbours in the batch still commit", async () => {
  const { committer, insert, count } = setup();
  const outcomes = await Promise.allSettled([
    committer.commit(() => insert.run(1)),
    committer.commit(() => {
      insert.run(2);
      insert.run(1); // duplicate key: this write fails after inserting 2
    }),
    committer.commit(() => insert.run(3)),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(count()).toBe(2);
  expect(committer.stats().batches).toBe(1);
});

test("writes queued in later turns form later batches", async () => {
  const { committer, insert, count } = setup();
  await committer.commit(() => insert.run(1));
  await committer.commit(() => insert.run(2));
  expect(count()).toBe(2);
  expect(committer.stats()).toEqual({ batches: 2, writes: 2 });
});

test("when the group transaction cannot take the write lock, every write in it is refused and nothing is half-written", async () => {
  const file = `${process.cwd()}/.tmp/group-commit-${crypto.randomUUID()}.db`;
  await Bun.$`mkdir -p ${process.cwd()}/.tmp`;
  const { openDatabase } = await import("../../src/db/client.ts");
  const db = openDatabase(file);
  const other = openDatabase(file);
  db.$client.run("CREATE TABLE t (n INTEGER PRIMARY KEY)");
  db.$client.run("PRAGMA busy_timeout = 50");
  const insert = db.$client.prepare("INSERT INTO t (n) VALUES (?)");
  const committer = new GroupCommitter(db);
  other.$client.run("BEGIN IMMEDIATE"); // another process is writing
  const outcomes = await Promise.allSettled([
    committer.commit(() => insert.run(1)),
    committer.commit(() => insert.run(2)),
  ]);
  other.$client.run("ROLLBACK");
  expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
  expect((db.$client.query("SELECT count(*) AS c FROM t").get() as { c: number }).c).toBe(0);
  db.$client.close();
  other.$client.close();
});

test("several failing writes in one batch each fail alone with their own error; every other write commits once", async () => {
  const { db, insert, count } = setup();
  const failures: string[] = [];
  const committed: number[] = [];
  const committer = new GroupCommitter(db, {
    committed: (writes, _seconds, failedWrites) => committed.push(writes, failedWrites),
    failed: (error) => failures.push((error as Error).message),
  });
  const runs = new Map<number, number>();
  const write = (n: number) => () => {
    runs.set(n, (runs.get(n) ?? 0) + 1);
    insert.run(n);
    if (n % 3 === 1) throw new Error(`write ${n} refused`);
    return n;
  };
  const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, n) => committer.commit(write(n))));
  expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual([
    0,
    "write 1 refused",
    2,
    3,
    "write 4 refused",
    5,
    6,
    "write 7 refused",
  ]);
  expect(
    db.$client
      .query<{ n: number }, []>("SELECT n FROM t ORDER BY n")
      .all()
      .map((row) => row.n),
  ).toEqual([0, 2, 3, 5, 6]);
  expect(count()).toBe(5);
  expect(failures).toEqual(["write 1 refused", "write 4 refused", "write 7 refused"]);
  expect(committed).toEqual([8, 3]);
  // Write 0 ran in the first transaction, in the replay without write 1, and alone after write 4 failed the replay.
  expect(runs.get(0)).toBe(3);
  expect(committer.stats()).toEqual({ batches: 1, writes: 8 });
});

test("a participant that fails before COMMIT refuses the whole batch, and is told the batch rolled back", async () => {
  const { db, insert, count } = setup();
  const committer = new GroupCommitter(db);
  const events: string[] = [];
  let refuse = true;
  committer.join({
    beforeCommit() {
      if (refuse) throw new Error("checkpoint not signed");
    },
    afterCommit: () => events.push("committed"),
    afterRollback: () => events.push("rolled back"),
  });
  const outcomes = await Promise.allSettled([
    committer.commit(() => insert.run(1)),
    committer.commit(() => insert.run(2)),
  ]);
  expect(outcomes.map((o) => (o.status === "rejected" ? (o.reason as Error).message : "answered"))).toEqual([
    "checkpoint not signed",
    "checkpoint not signed",
  ]);
  expect(events).toEqual(["rolled back"]);
  expect(count()).toBe(0);
  refuse = false;
  await committer.commit(() => insert.run(3));
  expect(events).toEqual(["rolled back", "committed"]);
  expect(count()).toBe(1);
});

test("a transaction begun while a batch awaits waits for the batch to end: it neither joins the batch nor goes down with it", async () => {
  const { db, committer, insert, count } = setup();
  const entered = Promise.withResolvers<void>();
  const held = Promise.withResolvers<void>();
  const failing = committer.commit(async () => {
    insert.run(1);
    entered.resolve();
    await held.promise; // a real wait inside the batch's open transaction
    throw new Error("the write failed after waiting");
  });
  await entered.promise;
  let otherRan = false;
  const other = inTransaction(db, async () => {
    otherRan = true;
    insert.run(2);
  });
  await Bun.sleep(20);
  expect(otherRan).toBe(false);
  held.resolve();
  await expect(failing).rejects.toThrow("the write failed after waiting");
  await other;
  expect(db.$client.query("SELECT n FROM t").all()).toEqual([{ n: 2 }]);
  expect(count()).toBe(1);
});

test("refusal rows and the readiness probe written while a batch awaits wait for it, and survive its rollback", async () => {
  const { db, committer, insert } = setup();
  const principal = seedPrincipal(db, { tier: "explorer" });
  const held = Promise.withResolvers<void>();
  const failing = committer.commit(async () => {
    insert.run(1);
    await held.promise;
    throw new Error("rolled back");
  });
  await Bun.sleep(5);
  const refusal = sqliteUsageWrites(db).writeRefusals([
    {
      at: 1,
      requestId: "req_refused",
      accountId: principal.accountId,
      keyId: principal.keyId,
      skill: "rate-lookup",
      status: 429,
      latencyMs: 1,
      receiptId: null,
    },
  ]);
  const probe = sqliteProbe(db)(Date.parse("2026-03-01T00:00:00Z"));
  await Bun.sleep(5);
  held.resolve();
  await expect(failing).rejects.toThrow("rolled back");
  expect(await refusal).toBe(0);
  expect(await probe).toEqual({ ok: true });
  expect(db.$client.query("SELECT request_id AS id FROM usage_events").all()).toEqual([{ id: "req_refused" }]);
  expect(db.$client.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
});
