import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Principal } from "../../src/access/principal.ts";
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import { keysRotateSigning } from "../../src/cli/keys.ts";
import { receiptsVerifyCommand } from "../../src/cli/receipts.ts";
import { ManualClock } from "../../src/clock.ts";
import type { Store } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { openStore } from "../../src/db/open.ts";
import type { AppendedReceipt } from "../../src/receipts/ledger.ts";
import { parseNote } from "../../src/receipts/log/note.ts";
import { leafHash, verifyInclusion } from "../../src/receipts/log/merkle.ts";
import { openReceiptLedger } from "../../src/receipts/receipt-ledger.ts";
import { verifyLog } from "../../src/receipts/verify.ts";
import { usePostgres } from "../support/postgres.ts";
import { sampleEntry, T0 } from "./fixtures.ts";
import { defined } from "../support/defined.ts";
import { portableLedgerStorage } from "../../src/receipts/ledger-storage.ts";

const postgres = usePostgres();

/** One replica: its own connection pool, ledger and group committer over the shared database. */
async function replica(url: string) {
  const opened = await openStore({ dialect: "postgres", url });
  const ledger = await openReceiptLedger(opened.store, portableLedgerStorage(opened.store), {
    clock: new ManualClock(T0),
    origin: "waybill.test/log",
  });
  const committer = new GroupCommitter(opened.store);
  committer.join(ledger.log);
  committer.join(ledger.parts);
  const append = (principal: Principal) => committer.commit((tx) => ledger.append(tx, sampleEntry(principal)));
  return { store: opened.store, ledger, committer, append, close: opened.close };
}

type Replica = Awaited<ReturnType<typeof replica>>;

/** Two replicas of a fresh database, closed after `work` whatever happens. */
async function withTwoReplicas(work: (a: Replica, b: Replica) => Promise<void>): Promise<void> {
  const url = await postgres.freshDatabase();
  const a = await replica(url);
  const b = await replica(url);
  try {
    await work(a, b);
  } finally {
    await a.close();
    await b.close();
  }
}

async function principalOn(store: Store): Promise<Principal> {
  const account = await createAccount(
    store,
    { email: `log${crypto.randomUUID()}@example.test`, tier: "professional" },
    T0,
  );
  const issued = await issueKey(store, account.id, null, T0);
  return {
    accountId: account.id,
    keyId: issued.record.id,
    authObjId: issued.record.authObjId,
    tier: "professional",
    scopes: null,
  };
}

/** Appends from every replica at once, in waves, so batches of different replicas interleave. */
async function appendConcurrently(
  replicas: { append: (p: Principal) => Promise<AppendedReceipt> }[],
  principal: Principal,
  waves: number,
  perWave: number,
) {
  const appended: AppendedReceipt[][] = replicas.map(() => []);
  await Promise.all(
    replicas.map(async (r, n) => {
      for (let wave = 0; wave < waves; wave++) {
        defined(appended[n], "appended[n]").push(
          ...(await Promise.all(Array.from({ length: perWave }, () => r.append(principal)))),
        );
      }
    }),
  );
  return appended;
}

describe("one receipt log across PostgreSQL replicas", () => {
  test("two replicas appending at once make one log: every index 0..n-1 exactly once, every checkpoint signed and consistent", {
    timeout: 120_000,
  }, async () => {
    await withTwoReplicas(async (a, b) => {
      const principal = await principalOn(a.store);
      const appended = await appendConcurrently([a, b], principal, 6, 40);
      const all = appended.flat();
      const n = all.length;
      expect(n).toBe(480);
      expect(new Set(all.map((r) => r.logIndex)).size).toBe(n);
      expect(all.map((r) => r.logIndex).sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
      // Both replicas really wrote: neither one's receipts are all the other's.
      expect(defined(appended[0], "appended[0]").length).toBe(240);
      expect(defined(appended[1], "appended[1]").length).toBe(240);
      const seqs = (await a.store.select({ seq: a.store.t.receipts.seq }).from(a.store.t.receipts))
        .map((row) => row.seq)
        .sort((x, y) => x - y);
      expect(seqs).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      // Batches of both replicas are interleaved under checkpoints, each signed by the one log key.
      const checkpoints = await a.store.select().from(a.store.t.logCheckpoints);
      expect(checkpoints.length).toBeGreaterThan(2);
      expect(Math.max(...checkpoints.map((c) => c.treeSize))).toBe(n);

      const verified = await verifyLog(a.store);
      expect(verified).toEqual({ ok: true, checked: n, checkpoints: checkpoints.length });

      // A replica behind the newest checkpoint catches up before it proves: b's proof of a's receipt.
      await b.ledger.log.follow();
      const latest = defined(b.ledger.log.latest(), "b.ledger.log.latest()");
      expect(latest.size).toBe(n);
      const own = defined(defined(appended[0], "appended[0]")[7], "appended[0][7]");
      const proof = await b.ledger.log.reading(() => b.ledger.log.inclusionProof(own.logIndex, n));
      expect(verifyInclusion(own.logIndex, n, leafHash(Buffer.from(own.hash, "hex")), proof, latest.root)).toBe(true);
    });
  });

  test("a batch that fails on one replica leaves no trace: the next appends take its indexes", {
    timeout: 60_000,
  }, async () => {
    await withTwoReplicas(async (a, b) => {
      const principal = await principalOn(a.store);
      await a.append(principal);
      await b.append(principal);
      const failing = a.committer.commit(async (tx) => {
        await a.ledger.append(tx, sampleEntry(principal));
        throw new Error("the handler failed after its receipt was appended");
      });
      await expect(failing).rejects.toThrow("the handler failed");
      const [afterA, afterB] = await Promise.all([a.append(principal), b.append(principal)]);
      expect([afterA.logIndex, afterB.logIndex].sort()).toEqual([2, 3]);
      expect(await verifyLog(b.store)).toMatchObject({ ok: true, checked: 4 });
    });
  });

  test("receipts verify names a tampered row; a signing key rotated through the CLI signs every replica's next checkpoint", {
    timeout: 60_000,
  }, async () => {
    await withTwoReplicas(async (a, b) => {
      const principal = await principalOn(a.store);
      await appendConcurrently([a, b], principal, 2, 10);
      const rotated = await keysRotateSigning(a.store, new ManualClock(T0 + 1000), { json: true });
      const newKid = JSON.parse(rotated.output).kid as string;
      const [fromA, fromB] = [await a.append(principal), await b.append(principal)];
      const t = a.store.t.logCheckpoints;
      for (const appended of [fromA, fromB]) {
        const [checkpoint] = await a.store
          .select()
          .from(t)
          .where(eq(t.treeSize, appended.logIndex + 1));
        expect(defined(checkpoint, "checkpoint").kid).toBe(newKid);
        expect(parseNote(defined(checkpoint, "checkpoint").note).signatures).toHaveLength(1);
      }
      expect((await receiptsVerifyCommand(b.store, { json: true })).exitCode).toBe(0);

      await a.store.update(a.store.t.receipts).set({ skill: "fuel-surcharge" }).where(eq(a.store.t.receipts.seq, 9));
      const report = await receiptsVerifyCommand(b.store, { json: true });
      expect(report.exitCode).toBe(1);
      expect(JSON.parse(report.output)).toMatchObject({ ok: false, checked: 8, firstBrokenSeq: 9 });
      // Repaired, then the newest checkpoint deleted: the receipts it alone covered are named.
      await a.store.update(a.store.t.receipts).set({ skill: "rate-lookup" }).where(eq(a.store.t.receipts.seq, 9));
      await a.store
        .delete(a.store.t.logCheckpoints)
        .where(sql`${t.treeSize} = (SELECT max(tree_size) FROM log_checkpoints)`);
      expect(await verifyLog(a.store)).toMatchObject({ ok: false, firstBrokenSeq: 42, checked: 42 });
    });
  });
});
