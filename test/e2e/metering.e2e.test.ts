/**
 * The month count against the real compiled binary on a real loopback port: a kill -9 under load
 * loses no answered call (every 200 has its receipt and usage row, the month count matches them and
 * the receipt chain still verifies), and concurrent calls never overshoot the month.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { binaryInEmptyFolder, runCli, startBinary } from "../support/binary.ts";
import { loadWithKill, rateLookupAt } from "../support/lookup-load.ts";
import { defined } from "../support/defined.ts";

let dir: string;
let exe: string;
beforeAll(async () => {
  ({ dir, exe } = await binaryInEmptyFolder());
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function accountWithKey(dbFile: string, email: string, tier: string): string {
  const account = runCli(exe, ["accounts", "create", "--email", email, "--tier", tier, "--json", "--db", dbFile], dir);
  expect(account.exitCode).toBe(0);
  const key = runCli(exe, ["keys", "create", "--email", email, "--json", "--db", dbFile], dir);
  expect(key.exitCode).toBe(0);
  return JSON.parse(key.stdout).key as string;
}

type Outcome = { status: number; receiptId?: string; window?: string } | { status: "no answer" };

async function lookup(url: string, key: string): Promise<Outcome> {
  const outcome = await rateLookupAt(url, key);
  if (outcome.status === "no answer") return outcome;
  return {
    status: outcome.status,
    receiptId: outcome.body.receipt_id as string | undefined,
    window: outcome.body.window as string | undefined,
  };
}

function openReadOnly(dbFile: string) {
  return new Database(dbFile, { readonly: true });
}

function accountIdOf(db: Database, email: string): string {
  return defined(
    db.query<{ id: string }, [string]>("SELECT id FROM accounts WHERE email = ?").get(email),
    "the row of SELECT id FROM accounts WHERE email = ?",
  ).id;
}

function monthCount(db: Database, accountId: string): number {
  return defined(
    db
      .query<{ n: number }, [string]>("SELECT coalesce(sum(answered), 0) AS n FROM monthly_usage WHERE account_id = ?")
      .get(accountId),
    "the row of SELECT coalesce(sum(answered), 0) AS n FROM monthly_usage WHERE account_id = ?",
  ).n;
}

/** Answered calls as the usage reports count them: receipts carrying their call's usage (docs/performance.md, "One row per answered call"). */
function answeredRows(db: Database, accountId: string): number {
  return defined(
    db
      .query<{ n: number }, [string]>(
        "SELECT count(*) AS n FROM receipts WHERE account_id = ? AND request_id IS NOT NULL",
      )
      .get(accountId),
    "the row of SELECT count(*) AS n FROM receipts WHERE account_id = ? AND request_id IS NOT …",
  ).n;
}

describe("month count of the compiled binary", () => {
  test("kill -9 under load loses no answered call: every 200 has its receipt carrying its usage, and the month count matches", async () => {
    const dbFile = join(dir, "crash.db");
    const email = "load@example.com";
    const key = await accountWithKey(dbFile, email, "enterprise");
    const env = { WAYBILL_LIMITS: '{"enterprise":{"per_minute":100000,"per_month":1000000}}' };
    const server = await startBinary(exe, ["--db", dbFile], { cwd: dir, env });

    const killAfterAnswers = 80;
    const { outcomes, killed } = await loadWithKill({
      total: 200,
      workers: 16,
      killAfter: killAfterAnswers,
      call: () => lookup(server.url, key),
      kill: () => server.process.kill("SIGKILL"),
    });
    await server.process.exited;
    expect(killed).toBe(true);

    const answered = outcomes.filter((o): o is { status: 200; receiptId: string } => o.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(killAfterAnswers);
    expect(outcomes.some((o) => o.status === "no answer")).toBe(true); // the kill really landed mid-load
    expect(outcomes.every((o) => o.status === 200 || o.status === "no answer")).toBe(true);

    // The restarted server opens the same file (WAL recovery, migrations) and is ready.
    const restarted = await startBinary(exe, ["--db", dbFile], { cwd: dir, env });
    expect((await fetch(`${restarted.url}/readyz`)).status).toBe(200);
    expect(await restarted.stop("SIGTERM")).toBe(0);

    const db = openReadOnly(dbFile);
    try {
      const accountId = accountIdOf(db, email);
      const receiptWithUsage = db.query<{ n: number }, [string]>(
        "SELECT count(*) AS n FROM receipts WHERE id = ? AND request_id LIKE 'req_%' AND key_id IS NOT NULL AND latency_ms >= 0",
      );
      const missing = answered.filter(
        (o) => defined(receiptWithUsage.get(o.receiptId), "receiptWithUsage.get(o.receiptId)").n !== 1,
      );
      expect(missing).toEqual([]);
      expect(
        defined(
          db
            .query<{ n: number }, [string]>("SELECT count(*) AS n FROM usage_events WHERE account_id = ?")
            .get(accountId),
          "the row of SELECT count(*) AS n FROM usage_events WHERE account_id = ?",
        ).n,
      ).toBe(0);
      const stored = answeredRows(db, accountId);
      expect(stored).toBeGreaterThanOrEqual(answered.length); // committed calls whose answer the kill cut off count too
      expect(monthCount(db, accountId)).toBe(stored);
    } finally {
      db.close();
    }
    expect(runCli(exe, ["receipts", "verify", "--db", dbFile], dir).exitCode).toBe(0);
  }, 180_000);

  test("N concurrent calls on a key with L calls left this month: exactly L answered, N − L refused by the month", async () => {
    const dbFile = join(dir, "quota.db");
    const email = "quota@example.com";
    const key = await accountWithKey(dbFile, email, "explorer");
    const perMonth = 30;
    const server = await startBinary(exe, ["--db", dbFile], {
      cwd: dir,
      env: { WAYBILL_LIMITS: `{"explorer":{"per_minute":100000,"per_month":${perMonth}}}` },
    });
    try {
      const spentBefore = 5;
      for (let i = 0; i < spentBefore; i++) expect((await lookup(server.url, key)).status).toBe(200);
      const left = perMonth - spentBefore;
      const n = 80;
      const outcomes = await Promise.all(Array.from({ length: n }, () => lookup(server.url, key)));
      expect(outcomes.filter((o) => o.status === 200)).toHaveLength(left);
      const refused = outcomes.filter((o) => o.status === 429);
      expect(refused).toHaveLength(n - left);
      expect(refused.every((o) => "window" in o && o.window === "month")).toBe(true);
    } finally {
      await server.stop("SIGTERM");
    }
    const db = openReadOnly(dbFile);
    try {
      const accountId = accountIdOf(db, email);
      expect(monthCount(db, accountId)).toBe(perMonth);
      expect(answeredRows(db, accountId)).toBe(perMonth);
    } finally {
      db.close();
    }
  }, 180_000);
});
