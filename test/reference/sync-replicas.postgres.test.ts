import { afterEach, describe, expect, test } from "bun:test";
import { unlessAnotherReplicaIs } from "../../src/db/advisory-lock.ts";
import { openStore } from "../../src/db/open.ts";
import { syncData } from "../../src/reference/sync/run.ts";
import { usePostgres } from "../support/postgres.ts";
import { type FakeApi, startFakeApis, syncEnv } from "./sync-server.ts";

const postgres = usePostgres();
const NOW = Date.parse("2026-11-23T08:00:00Z");
let api: FakeApi | undefined;
afterEach(() => api?.stop());

describe("sync on PostgreSQL replicas", () => {
  test("while one replica syncs, another finds the lock held and skips its turn; after it, the lock is free", async () => {
    const url = await postgres.freshDatabase();
    const [a, b] = await Promise.all([
      openStore({ dialect: "postgres", url }),
      openStore({ dialect: "postgres", url }),
    ]);
    api = startFakeApis({ blsDelayMs: 800 });
    try {
      const key = 0x57a7_5c0c;
      const first = unlessAnotherReplicaIs(a.store, key, () =>
        syncData(a.store, { sources: ["eia", "bls"], env: syncEnv(api?.url ?? "", false), now: NOW }),
      );
      await Bun.sleep(300); // a is inside its run (BLS answers after 800 ms)
      let ranOnB = false;
      const second = await unlessAnotherReplicaIs(b.store, key, async () => {
        ranOnB = true;
        return [];
      });
      expect(second).toBeUndefined();
      expect(ranOnB).toBe(false);
      const outcomes = await first;
      expect(outcomes?.map((o) => o.status)).toEqual(["added", "added"]);
      expect(await unlessAnotherReplicaIs(b.store, key, async () => "free")).toBe("free");
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);
});
