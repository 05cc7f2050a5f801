import { afterEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { startCheckpointer, type Checkpointer } from "../../src/db/checkpointer.ts";
import { openDatabase, type Db } from "../../src/db/client.ts";

const WAL_LIMIT = 256 * 1024;
const folder = join(process.cwd(), ".tmp", `checkpointer-${crypto.randomUUID()}`);
const opened: { db: Db; checkpointer?: Checkpointer }[] = [];

afterEach(async () => {
  for (const { db, checkpointer } of opened.splice(0)) {
    await checkpointer?.stop();
    db.$client.close();
  }
  rmSync(folder, { recursive: true, force: true });
});

function openBlobs(): { db: Db; file: string; burst(): void; writeOne(): void; rows(): number } {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${crypto.randomUUID()}.db`);
  const db = openDatabase(file);
  opened.push({ db });
  const sqlite = db.$client;
  sqlite.run("CREATE TABLE blobs (n INTEGER PRIMARY KEY AUTOINCREMENT, data BLOB NOT NULL)");
  const insert = sqlite.prepare("INSERT INTO blobs (data) VALUES (randomblob(4000))");
  return {
    db,
    file,
    // ~2 MB of WAL in 50 commits, well past the limit
    burst: () => {
      for (let t = 0; t < 50; t++) sqlite.transaction(() => { for (let i = 0; i < 10; i++) insert.run(); })();
    },
    writeOne: () => insert.run(),
    rows: () => (sqlite.query("SELECT count(*) AS c FROM blobs").get() as { c: number }).c,
  };
}

const walBytes = (file: string) => statSync(`${file}-wal`).size;

test("after a burst past the limit the worker copies the WAL into the database and empties it, losing nothing", async () => {
  const { db, file, burst, writeOne, rows } = openBlobs();
  const checkpointer = await startCheckpointer(db, { intervalMs: 10, walSizeLimitBytes: WAL_LIMIT });
  opened.at(-1)!.checkpointer = checkpointer;
  expect(db.$client.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 0 });

  burst();
  expect(walBytes(file)).toBeGreaterThan(WAL_LIMIT);
  const deadline = Date.now() + 5000;
  while (walBytes(file) > WAL_LIMIT && Date.now() < deadline) await Bun.sleep(10);
  expect(walBytes(file)).toBeLessThanOrEqual(WAL_LIMIT);
  writeOne();
  expect(rows()).toBe(501);

  await checkpointer.stop();
  opened.at(-1)!.checkpointer = undefined;
  expect(db.$client.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 1000 });
});

test("writes keep committing while the worker checkpoints under them, and the WAL stays bounded", async () => {
  const { db, file, burst, rows } = openBlobs();
  const checkpointer = await startCheckpointer(db, { intervalMs: 5, walSizeLimitBytes: WAL_LIMIT });
  opened.at(-1)!.checkpointer = checkpointer;
  let largest = 0;
  for (let round = 0; round < 20; round++) {
    burst();
    largest = Math.max(largest, walBytes(file));
    await Bun.sleep(30); // the server gives the lock up between group commits; a burst here holds it ~50 commits
  }
  expect(rows()).toBe(20 * 500);
  // a burst or two (~2.7 MB each) can land before a tick empties the file; twenty never pile up
  expect(largest).toBeLessThan(8 * 1024 * 1024);
});

test("control: with automatic checkpoints off and no worker, the same burst leaves the WAL large", async () => {
  const { db, file, burst, writeOne } = openBlobs();
  db.$client.run("PRAGMA wal_autocheckpoint = 0");
  burst();
  await Bun.sleep(100);
  writeOne();
  expect(walBytes(file)).toBeGreaterThan(WAL_LIMIT);
});

test("a database the worker cannot open is refused, and SQLite keeps checkpointing on commit", async () => {
  const { db } = openBlobs();
  const unopenable = { $client: { filename: join(folder, "missing", "nowhere.db"), run: db.$client.run.bind(db.$client) } } as unknown as Db;
  await expect(startCheckpointer(unopenable)).rejects.toThrow(/could not start/);
  expect(db.$client.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 1000 });
});
