import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { openDatabase } from "../../src/db/client.ts";
import { type BatchParticipant, type BatchStages, GroupCommitter } from "../../src/db/group-commit.ts";
import { openLedger, sampleEntry, seedPrincipal } from "../receipts/fixtures.ts";
import { defined } from "../support/defined.ts";

function fileDatabase() {
  mkdirSync(`${process.cwd()}/.tmp`, { recursive: true });
  const db = openDatabase(`${process.cwd()}/.tmp/wal-sync-${crypto.randomUUID()}.db`);
  db.$client.run("CREATE TABLE t (n INTEGER PRIMARY KEY)");
  const insert = db.$client.prepare("INSERT INTO t (n) VALUES (?)");
  const synchronous = () => (db.$client.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
  return { db, insert, synchronous };
}

/** Records what happened to each batch, in order. */
function recorder(events: string[]): BatchParticipant {
  return {
    beforeCommit: () => void events.push("before commit"),
    afterCommit: () => events.push("committed"),
    afterDurable: () => events.push("durable"),
    afterRollback: () => events.push("rolled back"),
  };
}

test("on a WAL file, a batch's callers hear only after it is durable, and durable batches are announced in commit order", async () => {
  const { db, insert } = fileDatabase();
  const committer = new GroupCommitter(db);
  const events: string[] = [];
  committer.join(recorder(events));
  const first = Array.from({ length: 10 }, (_, n) =>
    committer.commit(() => insert.run(n)).then(() => events.push(`answered ${n}`)),
  );
  await new Promise((resolve) => setImmediate(resolve)); // the first batch commits in this turn
  const second = committer.commit(() => insert.run(100)).then(() => events.push("answered 100"));
  await Promise.all([...first, second]);
  const answered = (n: number) => events.indexOf(`answered ${n}`);
  // Batch one: committed, then durable, then its callers; batch two the same, after batch one was durable.
  const [firstDurable, secondDurable] = events.flatMap((event, index) => (event === "durable" ? [index] : []));
  expect(events.filter((event) => event === "committed")).toHaveLength(2);
  expect(firstDurable).toBeLessThan(answered(0));
  expect(firstDurable).toBeLessThan(defined(secondDurable, "secondDurable"));
  expect(secondDurable).toBeLessThan(answered(100));
  expect(committer.stats()).toEqual({ batches: 2, writes: 11 });
  expect((db.$client.query("SELECT count(*) AS c FROM t").get() as { c: number }).c).toBe(11);
  db.$client.close();
});

test("the connection is back to synchronous=FULL after every batch: writes outside the group commit stay fsynced in COMMIT", async () => {
  const { db, insert, synchronous } = fileDatabase();
  expect(synchronous()).toBe(2);
  const committer = new GroupCommitter(db);
  await Promise.all([committer.commit(() => insert.run(1)), committer.commit(() => insert.run(2))]);
  expect(synchronous()).toBe(2);
  // A failing batch (the write lock is taken elsewhere) restores it too.
  db.$client.run("PRAGMA busy_timeout = 20");
  const other = openDatabase(db.$client.filename);
  other.$client.run("BEGIN IMMEDIATE");
  expect(committer.commit(() => insert.run(3))).rejects.toThrow();
  await new Promise((resolve) => setTimeout(resolve, 100));
  other.$client.run("ROLLBACK");
  expect(synchronous()).toBe(2);
  other.$client.close();
  db.$client.close();
});

test("flush() commits what is queued durably before it settles (shutdown)", async () => {
  const { db, insert } = fileDatabase();
  const committer = new GroupCommitter(db);
  const events: string[] = [];
  committer.join(recorder(events));
  committer.commit(() => insert.run(1));
  await committer.flush();
  expect(events).toEqual(["before commit", "committed", "durable"]);
  db.$client.close();
});

test("the receipt log serves a batch's checkpoint, tiles and entries only once the batch is on disk", async () => {
  const { db } = fileDatabase();
  const { ledger, committer } = await openLedger(db);
  const principal = seedPrincipal(db);
  const seen: { committed?: number | null; durable?: number | null; entriesAtCommit?: unknown } = {};
  // Joined after the log: told after the log at each step.
  committer.join({
    ...recorder([]),
    afterCommit: () => {
      seen.committed = ledger.log.latest()?.size ?? null;
      seen.entriesAtCommit = ledger.log.entries(0, 3);
    },
    afterDurable: () => {
      seen.durable = ledger.log.latest()?.size ?? null;
    },
  });
  await Promise.all([1, 2, 3].map(() => committer.commit(() => ledger.append(db, sampleEntry(principal)))));
  expect(seen).toEqual({ committed: null, durable: 3, entriesAtCommit: expect.any(Promise) });
  expect(await seen.entriesAtCommit).toBeNull();
  expect(await ledger.log.entries(0, 3)).toHaveLength(3);
  expect(await ledger.log.reading(() => ledger.log.tile(0, 0, 3))).toHaveLength(3);
  expect(await ledger.log.reading(() => ledger.log.tile(0, 0, 4))).toBeNull();
  db.$client.close();
});

test("batches committed while earlier ones are still being synced get syncs of their own and are still announced in commit order", async () => {
  const { db, insert } = fileDatabase();
  // No waiting for company: every turn commits a batch, so the syncs overlap.
  const committer = new GroupCommitter(db, undefined, { companyWaitMs: 0 });
  const events: string[] = [];
  committer.join(recorder(events));
  const answered: number[] = [];
  const calls: Promise<unknown>[] = [];
  // One batch per turn of the loop, without waiting for any to be durable: up to 40 syncs overlap.
  for (let n = 0; n < 40; n++) {
    calls.push(committer.commit(() => insert.run(n)).then(() => answered.push(n)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(calls);
  expect(answered).toEqual(Array.from({ length: 40 }, (_, n) => n));
  const durable = events.filter((event) => event === "durable").length;
  expect(durable).toBe(committer.stats().batches);
  // Every batch was committed before it was announced durable.
  let committed = 0;
  let announced = 0;
  for (const event of events) {
    if (event === "committed") committed += 1;
    if (event === "durable") expect(++announced).toBeLessThanOrEqual(committed);
  }
  db.$client.close();
});

test("the committer reports each durable batch's stages: every write's wait, the writes, COMMIT and the sync", async () => {
  const { db, insert } = fileDatabase();
  const reported: BatchStages[] = [];
  const committer = new GroupCommitter(db, {
    committed: () => {},
    failed: () => {},
    stages: (stages) => reported.push(stages),
  });
  await Promise.all([1, 2, 3].map((n) => committer.commit(() => insert.run(n))));
  expect(reported).toHaveLength(1);
  const [stages] = reported;
  expect(defined(stages, "stages").queuedMs).toHaveLength(3);
  for (const ms of [
    ...defined(stages, "stages").queuedMs,
    defined(stages, "stages").writesMs,
    defined(stages, "stages").commitMs,
    defined(stages, "stages").syncMs,
  ])
    expect(ms).toBeGreaterThanOrEqual(0);
  // The fsync ran off the loop after COMMIT: it took some time of its own.
  expect(defined(stages, "stages").syncMs).toBeGreaterThan(0);
  db.$client.close();
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test("calls made while an earlier batch is still becoming durable wait a timer tick for company and share one batch", async () => {
  const { db, insert } = fileDatabase();
  const committer = new GroupCommitter(db);
  const first = committer.commit(() => insert.run(1));
  await nextTurn(); // the first batch commits; its fsync is still running when the next calls arrive
  const overlapping = [committer.commit(() => insert.run(2))];
  await nextTurn(); // a later turn: without the wait, the call above would have been committed alone by now
  overlapping.push(committer.commit(() => insert.run(3)));
  await Promise.all([first, ...overlapping]);
  expect(committer.stats()).toEqual({ batches: 2, writes: 3 });
  db.$client.close();
});

test("a caller alone (each call after the previous one was answered) gets a batch of its own at once", async () => {
  const { db, insert } = fileDatabase();
  const committer = new GroupCommitter(db);
  for (let n = 0; n < 5; n++) {
    let ran = false;
    const answered = committer.commit(() => {
      ran = true;
      return insert.run(n);
    });
    await nextTurn();
    expect(ran).toBe(true); // written in the turn after the call, not a timer tick later: nothing else was outstanding
    await answered;
  }
  expect(committer.stats()).toEqual({ batches: 5, writes: 5 });
  db.$client.close();
});
