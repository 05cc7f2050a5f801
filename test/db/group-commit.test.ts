import { expect, test } from "bun:test";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";

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
  const outcomes = await Promise.allSettled([committer.commit(() => insert.run(1)), committer.commit(() => insert.run(2))]);
  other.$client.run("ROLLBACK");
  expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
  expect((db.$client.query("SELECT count(*) AS c FROM t").get() as { c: number }).c).toBe(0);
  db.$client.close();
  other.$client.close();
});
