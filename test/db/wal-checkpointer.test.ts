import { expect, test } from "bun:test";
import { mkdirSync, statSync } from "node:fs";
import { openDatabase, WAL_SIZE_LIMIT_BYTES } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { RESTART_FRAMES } from "../../src/db/wal-checkpointer.ts";

function fileDatabase() {
  mkdirSync(`${process.cwd()}/.tmp`, { recursive: true });
  const db = openDatabase(`${process.cwd()}/.tmp/wal-checkpointer-${crypto.randomUUID()}.db`);
  db.$client.run("CREATE TABLE t (n INTEGER PRIMARY KEY, payload BLOB NOT NULL)");
  return db;
}

const autocheckpoint = (db: ReturnType<typeof fileDatabase>) =>
  (db.$client.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

test("a group-commit batch commits with SQLite's inline checkpoint off; writes outside it keep it", async () => {
  const db = fileDatabase();
  const committer = new GroupCommitter(db);
  const insert = db.$client.prepare("INSERT INTO t (n, payload) VALUES (?, zeroblob(10))");
  await committer.commit(() => insert.run(1)); // the first batch finds the WAL file and starts syncing it
  const seen = await committer.commit(() => {
    insert.run(2);
    return autocheckpoint(db);
  });
  expect(seen).toBe(0);
  expect(autocheckpoint(db)).toBe(RESTART_FRAMES);
  await committer.close();
  db.$client.close();
});

test("checkpoints on the worker keep the WAL bounded and start it over, and every committed row is in the database", async () => {
  const db = fileDatabase();
  const holds: number[] = [];
  const committer = new GroupCommitter(db, { committed() {}, failed() {}, held: (ms) => holds.push(ms) });
  const insert = db.$client.prepare("INSERT INTO t (n, payload) VALUES (?, randomblob(16000))");
  // Rows of 4 pages each in batches, four WAL size limits' worth: without checkpoints the WAL would hold every one of them.
  let n = 0;
  while (n * 16000 < 4 * WAL_SIZE_LIMIT_BYTES) {
    await Promise.all(Array.from({ length: 8 }, () => committer.commit(() => insert.run(++n))));
  }
  await committer.close();
  const walBytes = statSync(`${db.$client.filename}-wal`).size;
  const writtenBytes = n * 16000;
  expect(walBytes).toBeLessThan(writtenBytes / 2); // the WAL was started over, not grown to hold everything
  expect(holds.length).toBeGreaterThan(0); // each start-over held the batches once, and said for how long
  for (const ms of holds) expect(ms).toBeGreaterThanOrEqual(0);
  expect((db.$client.query("SELECT count(*) AS c FROM t").get() as { c: number }).c).toBe(n);
  const check = db.$client.query("PRAGMA wal_checkpoint(PASSIVE)").get() as {
    busy: number;
    log: number;
    checkpointed: number;
  };
  // The worker let go of the file (no lock left behind), and the WAL holds at most about one restart's worth
  // of pages (it starts over past RESTART_FRAMES; a busy machine may let it run a few batches past that).
  expect(check.busy).toBe(0);
  expect(check.log).toBeLessThan(RESTART_FRAMES * 1.5);
  expect(check.log * 4096).toBeLessThan(writtenBytes / 2);
  db.$client.close();
});

test("a WAL that a large batch grew is cut back to the size limit when it starts over", async () => {
  const db = fileDatabase();
  const committer = new GroupCommitter(db);
  const insert = db.$client.prepare("INSERT INTO t (n, payload) VALUES (?, randomblob(16000))");
  await committer.commit(() => insert.run(0));
  // One batch of ~40 MB: the WAL file grows to hold it (a batch is never split).
  await committer.commit(() => {
    for (let n = 1; n <= 2500; n++) insert.run(n);
  });
  const wal = `${db.$client.filename}-wal`;
  expect(statSync(wal).size).toBeGreaterThan(2 * WAL_SIZE_LIMIT_BYTES);
  await committer.close();
  // Everything copied into the database file: the next commit starts the WAL over from its beginning.
  const check = db.$client.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { log: number; checkpointed: number };
  expect(check.checkpointed).toBe(check.log);
  const after = new GroupCommitter(db);
  await after.commit(() => insert.run(2501));
  expect(statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
  await after.close();
  expect((db.$client.query("SELECT count(*) AS c FROM t").get() as { c: number }).c).toBe(2502);
  db.$client.close();
});
