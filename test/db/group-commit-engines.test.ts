import { describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import type { Store } from "../../src/db/client.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { openStore } from "../../src/db/open.ts";
import { inTransaction } from "../../src/db/transaction.ts";
import { usePostgres } from "../support/postgres.ts";
import { defined } from "../support/defined.ts";

const postgres = usePostgres();

const engines: [string, () => Promise<{ store: Store; close(): Promise<void> }>][] = [
  [
    "sqlite",
    async () => {
      const db = openMemoryDatabase();
      return { store: db, close: async () => db.$client.close() };
    },
  ],
  ["postgres", async () => openStore({ dialect: "postgres", url: await postgres.freshDatabase() })],
];

/** A write as storage code writes it: awaited builders on the batch's transaction. */
const insertSetting = (key: string) => async (tx: Store) => {
  await tx.insert(tx.t.settings).values({ key, value: "v" });
  return key;
};

const settingCount = async (store: Store) =>
  defined((await store.select({ n: count() }).from(store.t.settings))[0], "the settings count row").n;

/**
 * A participant whose first batchStarted waits until released, as the receipt log waits for its lock
 * while another replica's batch commits; it then fails with `failure`, if given. Later batches start at once.
 */
function holdFirstBatchStart(committer: GroupCommitter, failure?: Error) {
  const reached = Promise.withResolvers<void>();
  const released = Promise.withResolvers<void>();
  let batches = 0;
  committer.join({
    async batchStarted() {
      batches += 1;
      if (batches > 1) return;
      reached.resolve();
      await released.promise;
      if (failure) throw failure;
    },
    afterCommit() {},
    afterRollback() {},
  });
  return { reached: reached.promise, release: () => released.resolve() };
}

describe.each(engines)("group commit on %s", (_engine, open) => {
  test("asynchronous writes queued together commit in one batch and settle after it", async () => {
    const { store, close } = await open();
    const committer = new GroupCommitter(store);
    const keys = await Promise.all(Array.from({ length: 20 }, (_, n) => committer.commit(insertSetting(`k${n}`))));
    expect(keys).toHaveLength(20);
    expect(await settingCount(store)).toBe(20);
    expect(committer.stats()).toEqual({ batches: 1, writes: 20 });
    await close();
  });

  test("a failing write is refused alone; its neighbours commit", async () => {
    const { store, close } = await open();
    const committer = new GroupCommitter(store);
    const outcomes = await Promise.allSettled([
      committer.commit(insertSetting("a")),
      committer.commit(async (tx) => {
        await insertSetting("b")(tx);
        await insertSetting("a")(tx); // duplicate key
      }),
      committer.commit(insertSetting("c")),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const keys = (await store.select().from(store.t.settings)).map((row) => row.key).sort();
    expect(keys).toEqual(["a", "c"]);
    await close();
  });

  test("writes queued while the batch's participants start join that batch", async () => {
    const { store, close } = await open();
    const committer = new GroupCommitter(store);
    const start = holdFirstBatchStart(committer);
    const first = committer.commit(insertSetting("first"));
    await start.reached;
    const late = [committer.commit(insertSetting("late-1")), committer.commit(insertSetting("late-2"))];
    start.release();
    expect(await Promise.all([first, ...late])).toEqual(["first", "late-1", "late-2"]);
    expect(committer.stats()).toEqual({ batches: 1, writes: 3 });
    expect(await settingCount(store)).toBe(3);
    await close();
  });

  test("a batch refused before its writes ran leaves the late writes to the next batch", async () => {
    const { store, close } = await open();
    const committer = new GroupCommitter(store);
    const start = holdFirstBatchStart(committer, new Error("the log's lock was lost"));
    const first = committer.commit(insertSetting("first"));
    await start.reached;
    const late = committer.commit(insertSetting("late"));
    start.release();
    await expect(first).rejects.toThrow("the log's lock was lost");
    expect(await late).toBe("late");
    expect((await store.select().from(store.t.settings)).map((row) => row.key)).toEqual(["late"]);
    await close();
  });

  test("a transaction opened while a batch is in flight waits its turn instead of nesting", async () => {
    const { store, close } = await open();
    const committer = new GroupCommitter(store);
    const batch = committer.commit(async (tx) => {
      await Bun.sleep(20);
      return insertSetting("in-batch")(tx);
    });
    await Bun.sleep(1);
    const other = inTransaction(store, async (tx) => {
      await insertSetting("other")(tx);
      throw new Error("changed my mind");
    });
    await expect(other).rejects.toThrow("changed my mind");
    await batch;
    expect((await store.select().from(store.t.settings)).map((row) => row.key)).toEqual(["in-batch"]);
    await close();
  });
});
