import { expect, test } from "bun:test";
import { inArray } from "drizzle-orm";
import { join } from "node:path";
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import type { Principal } from "../../src/access/principal.ts";
import { openStore } from "../../src/db/open.ts";
import { verifyLog } from "../../src/receipts/verify.ts";
import { usePostgres } from "../support/postgres.ts";
import { T0 } from "./fixtures.ts";
import { defined } from "../support/defined.ts";

const postgres = usePostgres();
const APPENDER = join(import.meta.dir, "../support/receipt-appender.ts");

/** A replica process appending receipts; `answered` fills with what it has printed as answered. */
function startAppender(url: string, principal: Principal) {
  const child = Bun.spawn([process.execPath, APPENDER, url, JSON.stringify(principal)], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const answered: { logIndex: number; id: string }[] = [];
  const reading = (async () => {
    let rest = "";
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value, { stream: true });
      const lines = rest.split("\n");
      rest = defined(lines.pop(), "lines.pop()");
      for (const line of lines) {
        const [index, id] = line.split(" ");
        answered.push({ logIndex: Number(index), id: defined(id, "id") });
      }
    }
  })();
  const until = async (count: number) => {
    const deadline = Date.now() + 60_000;
    while (answered.length < count) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`the appender answered ${answered.length} calls: ${await new Response(child.stderr).text()}`);
      await Bun.sleep(20);
    }
  };
  return { child, answered, until, reading };
}

test("a replica killed with kill -9 while appending loses no answered receipt, and the log still verifies", {
  timeout: 180_000,
}, async () => {
  const url = await postgres.freshDatabase();
  const { store, close } = await openStore({ dialect: "postgres", url });
  try {
    const account = await createAccount(store, { email: "kill@example.test", tier: "professional" }, T0);
    const issued = await issueKey(store, account.id, null, T0);
    const principal: Principal = {
      accountId: account.id,
      keyId: issued.record.id,
      authObjId: issued.record.authObjId,
      tier: "professional",
      scopes: null,
    };
    const victim = startAppender(url, principal);
    const survivor = startAppender(url, principal);
    await Promise.all([victim.until(300), survivor.until(300)]);
    victim.child.kill("SIGKILL");
    await victim.child.exited;
    await victim.reading;
    // The survivor goes on appending after the kill: the killed replica's lock and batch are gone.
    const seenAtKill = survivor.answered.length;
    await survivor.until(seenAtKill + 200);
    survivor.child.kill("SIGKILL");
    await survivor.child.exited;
    await survivor.reading;

    const answered = [...victim.answered, ...survivor.answered];
    const stored = await store
      .select({ seq: store.t.receipts.seq, id: store.t.receipts.id })
      .from(store.t.receipts)
      .where(
        inArray(
          store.t.receipts.id,
          answered.map((receipt) => receipt.id),
        ),
      );
    const seqOf = new Map(stored.map((row) => [row.id, row.seq]));
    for (const receipt of answered) expect(seqOf.get(receipt.id)).toBe(receipt.logIndex + 1);
    const verified = await verifyLog(store);
    expect(verified.ok).toBe(true);
    expect(verified.checked).toBeGreaterThanOrEqual(answered.length);
  } finally {
    await close();
  }
});
