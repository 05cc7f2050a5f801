import { afterEach, describe, expect, test } from "bun:test";
import { setTier } from "../../src/access/accounts.ts";
import { authenticate } from "../../src/access/authenticate.ts";
import { postgresKeyIndex, type KeyIndex } from "../../src/access/key-index.ts";
import { revokeActiveKey } from "../../src/access/keys.ts";
import { CHANGES_CHANNEL, watchChanges, type ChangeWatcher } from "../../src/db/changes.ts";
import { openStore, type OpenStore } from "../../src/db/open.ts";
import type { PostgresStore } from "../../src/db/postgres.ts";
import { ApiError } from "../../src/errors.ts";
import { accountWithKey } from "../support/accounts.ts";
import { usePostgres } from "../support/postgres.ts";

const postgres = usePostgres();
const NOW = Date.parse("2026-03-10T12:00:00Z");

interface Replica {
  store: PostgresStore;
  keys: KeyIndex;
  watcher: ChangeWatcher;
  /** What every request does before it looks at a key, as the runtime and the pipeline do it. */
  authenticateNext(authorization: string): Promise<string>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A replica's key index and change watcher over its own pool on the shared database. */
async function replica(url: string): Promise<Replica> {
  const handle: OpenStore = await openStore({ dialect: "postgres", url });
  const store = handle.store as PostgresStore;
  const keys = postgresKeyIndex(store);
  await keys.pending();
  const watcher = await watchChanges(store);
  cleanups.push(async () => {
    await watcher.close();
    await handle.close();
  });
  return {
    store,
    keys,
    watcher,
    async authenticateNext(authorization) {
      const changed = watcher.poll();
      if (changed.local || changed.external) keys.reload();
      await keys.pending();
      try {
        return `${authenticate(keys, authorization).tier}`;
      } catch (error) {
        if (error instanceof ApiError) return String(error.body("req").error);
        throw error;
      }
    },
  };
}

/** Listening from now on: `heard` settles once `store`'s process has received the next notification on the channel. */
async function nextNotification(store: PostgresStore): Promise<{ heard: Promise<void> }> {
  const { promise, resolve } = Promise.withResolvers<void>();
  const subscription = await store.$client.listen(CHANGES_CHANNEL, () => resolve());
  return { heard: promise.finally(() => subscription.unlisten()) };
}

/** Two replicas on a fresh database and a starter key issued through `a` that `b` has already loaded. */
async function twoReplicasWithKey() {
  const url = await postgres.freshDatabase();
  const [a, b] = [await replica(url), await replica(url)];
  const { key, accountId } = await accountWithKey(a.store, NOW, "starter");
  b.keys.reload();
  await b.keys.pending();
  return { a, b, key, accountId };
}

describe("the key index across replicas on PostgreSQL", () => {
  test("a key revoked through one replica is refused by the other on its next request", async () => {
    const url = await postgres.freshDatabase();
    const [a, b] = [await replica(url), await replica(url)];
    // The key is issued through a: b learns of it from the NOTIFY, not from a restart.
    const issued = await nextNotification(b.store);
    const { key, accountId } = await accountWithKey(a.store, NOW, "starter");
    const bearer = `Bearer ${key}`;
    await issued.heard;
    expect(await b.authenticateNext(bearer)).toBe("starter");

    const revoked = await nextNotification(b.store);
    await revokeActiveKey(a.store, accountId, NOW + 1);
    await revoked.heard;
    expect(await b.authenticateNext(bearer)).toBe("REVOKED_API_KEY");
    expect(await a.authenticateNext(bearer)).toBe("REVOKED_API_KEY");
  });

  test("a tier change through one replica is in force on the other's next request", async () => {
    const { a, b, key, accountId } = await twoReplicasWithKey();
    expect(await b.authenticateNext(`Bearer ${key}`)).toBe("starter");
    const changed = await nextNotification(b.store);
    await setTier(a.store, accountId, "enterprise");
    await changed.heard;
    expect(await b.authenticateNext(`Bearer ${key}`)).toBe("enterprise");
  });

  test("with its listening connection cut, a replica still refuses a revoked key within the fallback poll", async () => {
    const { a, b, key, accountId } = await twoReplicasWithKey();
    expect(await b.authenticateNext(`Bearer ${key}`)).toBe("starter");
    // Every LISTEN connection on the database is dropped; the revoke's NOTIFY may reach nobody.
    await a.store.$client`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`;
    await revokeActiveKey(a.store, accountId, NOW + 1);
    let answer = "";
    for (let waited = 0; waited <= 3000 && answer !== "REVOKED_API_KEY"; waited += 100) {
      answer = await b.authenticateNext(`Bearer ${key}`);
      if (answer !== "REVOKED_API_KEY") await Bun.sleep(100);
    }
    expect(answer).toBe("REVOKED_API_KEY");
  });

  test("authentication waits for a reload in flight instead of answering from the old grants", async () => {
    const { a, b, key, accountId } = await twoReplicasWithKey();
    await revokeActiveKey(a.store, accountId, NOW + 1);
    b.keys.reload(); // as the watcher's poll starts it at the top of a request
    expect(b.keys.pending()).toBeInstanceOf(Promise);
    await b.keys.pending();
    expect(b.keys.pending()).toBeUndefined();
    expect(() => authenticate(b.keys, `Bearer ${key}`)).toThrow(ApiError);
  });
});
