/**
 * PostgreSQL going away is an outage of answers, not of replicas (docs/postgresql.md, "When
 * PostgreSQL goes away"). The compiled binary serves on a throw-away cluster of this file's own,
 * under a bounded load of four callers, while the cluster is stopped and started again and while
 * its connections are killed mid-transaction, and while it fails over to a copy of its data directory: every call is answered (200) or refused with 503
 * SERVICE_UNAVAILABLE and Retry-After, never a 500 or a dropped connection; the replica stays up,
 * answers again by itself within 10 s of PostgreSQL's return, and every acknowledged receipt is in
 * the log, which still verifies.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { binaryFolderForFile, type RunningServer } from "../support/binary.ts";
import { type PostgresCluster, startPostgres } from "../support/postgres.ts";
import { accountKeyOn, cliOn, startReplicas, type ReplicaSet } from "../support/replicas.ts";

const folder = binaryFolderForFile();
const CALLERS = 4;
/** Limits far above this load: the test is about the database going away, not about the meter. */
const LIMITS = { enterprise: { per_minute: 100_000_000, per_month: 1_000_000_000 } };
const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

let cluster: PostgresCluster;
let set: ReplicaSet;
let replica: RunningServer;
let key: string;

beforeAll(async () => {
  cluster = await startPostgres({ durable: true });
  cliOn(folder.exe, cluster.url, folder.dir, ["migrate", "--json"]);
  key = accountKeyOn(folder.exe, cluster.url, folder.dir, "outage@example.test", "enterprise");
  set = await startReplicas(folder.exe, 1, cluster.url, {
    cwd: folder.dir,
    env: { WAYBILL_LIMITS: JSON.stringify(LIMITS) },
  });
  const [first] = set.replicas;
  if (!first) throw new Error("no replica started");
  replica = first;
}, 240_000);

afterAll(async () => {
  await set?.stop();
  await cluster?.stop();
});

interface Outcome {
  /** ms since the load started */
  at: number;
  status: number | "dropped";
  error?: string;
  retryAfter?: string | null;
  receiptId?: string;
}

async function lookup(started: number): Promise<Outcome> {
  const at = performance.now() - started;
  try {
    const response = await fetch(`${replica.url}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(LANE),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as Record<string, unknown>;
    return {
      at,
      status: response.status,
      error: body.error as string | undefined,
      retryAfter: response.headers.get("retry-after"),
      receiptId: body.receipt_id as string | undefined,
    };
  } catch {
    return { at, status: "dropped" };
  }
}

/** Four callers, calling back to back until `stop()` (or 60 s); `disturb` runs once meanwhile. */
async function loadDuring(disturb: (started: number) => Promise<void>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const started = performance.now();
  let running = true;
  const caller = async () => {
    while (running && performance.now() - started < 60_000) {
      outcomes.push(await lookup(started));
      if (outcomes.at(-1)?.status !== 200) await Bun.sleep(50); // a client that backs off a little
    }
  };
  const callers = Array.from({ length: CALLERS }, caller);
  await disturb(started);
  running = false;
  await Promise.all(callers);
  return outcomes;
}

const isRunning = () => replica.process.exitCode === null && replica.process.signalCode === null;

async function readyz(): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${replica.url}/readyz`, { signal: AbortSignal.timeout(30_000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Every outcome is an answer or a clean 503 with Retry-After; returns the answered receipt ids. */
function expectCleanOutcomes(outcomes: Outcome[]): string[] {
  const unclean = outcomes.filter(
    (o) => o.status !== 200 && !(o.status === 503 && o.error === "SERVICE_UNAVAILABLE" && Number(o.retryAfter) > 0),
  );
  expect({ unclean: unclean.slice(0, 5), count: unclean.length }).toEqual({ unclean: [], count: 0 });
  return outcomes.flatMap((o) => (o.status === 200 && o.receiptId ? [o.receiptId] : []));
}

async function expectStoredAndVerified(receiptIds: string[]): Promise<void> {
  const sql = new SQL({ url: cluster.url, max: 1 });
  try {
    const rows = (await sql`select count(*)::int as n from receipts where id in ${sql(receiptIds)}`) as { n: number }[];
    expect(rows[0]?.n).toBe(receiptIds.length);
  } finally {
    await sql.close();
  }
  const verified = JSON.parse(cliOn(folder.exe, cluster.url, folder.dir, ["receipts", "verify", "--json"]));
  expect(verified.ok).toBe(true);
}

test("PostgreSQL stopped for 8 s under load: 503 with Retry-After meanwhile, answers again within 10 s of its return", async () => {
  let returnedAt = 0;
  let readyDuringOutage: { status: number; body: Record<string, unknown> } | undefined;
  let otherRouteDuringOutage: { status: number; error?: string; retryAfter: string | null } | undefined;
  const outcomes = await loadDuring(async (started) => {
    await Bun.sleep(1_500);
    cluster.halt("fast");
    const haltedAt = performance.now();
    await Bun.sleep(2_000);
    readyDuringOutage = await readyz();
    const usage = await fetch(`${replica.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    otherRouteDuringOutage = {
      status: usage.status,
      error: ((await usage.json()) as { error?: string }).error,
      retryAfter: usage.headers.get("retry-after"),
    };
    await Bun.sleep(Math.max(0, 8_000 - (performance.now() - haltedAt)));
    cluster.resume();
    returnedAt = performance.now() - started;
    // Load goes on until the replica has answered again, and a little after.
    const deadline = performance.now() + 15_000;
    while (performance.now() < deadline) {
      await Bun.sleep(250);
      if ((await readyz()).status === 200) break;
    }
    await Bun.sleep(2_000);
  });
  expect(isRunning()).toBe(true);
  const answered = expectCleanOutcomes(outcomes);
  expect(outcomes.some((o) => o.status === 503)).toBe(true);
  expect(readyDuringOutage?.status).toBe(503);
  // Not only skill calls: a route that reads the database refuses the same way.
  expect(otherRouteDuringOutage).toEqual({ status: 503, error: "SERVICE_UNAVAILABLE", retryAfter: "2" });
  expect(String((readyDuringOutage?.body.reasons as string[])?.[0])).toMatch(/unreachable|shutting down/);
  const firstAnswerAfter = outcomes.find((o) => o.status === 200 && o.at > returnedAt);
  expect(firstAnswerAfter).toBeDefined();
  expect((firstAnswerAfter?.at ?? Infinity) - returnedAt).toBeLessThan(10_000);
  await expectStoredAndVerified(answered);
  expect((await readyz()).status).toBe(200);
}, 120_000);

test("connections killed mid-transaction (pg_terminate_backend): no 500, no dropped call, nothing acknowledged lost", async () => {
  const admin = new SQL({ url: cluster.url, max: 1 });
  try {
    const outcomes = await loadDuring(async () => {
      for (let round = 0; round < 5; round++) {
        await Bun.sleep(400);
        await admin`select pg_terminate_backend(pid) from pg_stat_activity
                    where datname = current_database() and pid <> pg_backend_pid()`;
      }
      await Bun.sleep(3_000);
    });
    expect(isRunning()).toBe(true);
    const answered = expectCleanOutcomes(outcomes);
    const lastAt = Math.max(...outcomes.map((o) => o.at));
    // Answering again at the end: the killed connections were replaced by the pool.
    expect(outcomes.filter((o) => o.status === 200 && o.at > lastAt - 1_000).length).toBeGreaterThan(0);
    await expectStoredAndVerified(answered);
  } finally {
    await admin.close();
  }
}, 120_000);

test("failover to a copy of the data directory on the same address: answers again by itself, nothing acknowledged lost", async () => {
  let returnedAt = 0;
  const outcomes = await loadDuring(async (started) => {
    await Bun.sleep(1_500);
    await cluster.failoverToCopy();
    returnedAt = performance.now() - started;
    await Bun.sleep(4_000);
  });
  expect(isRunning()).toBe(true);
  const answered = expectCleanOutcomes(outcomes);
  expect(outcomes.some((o) => o.status === 503)).toBe(true); // the failover was felt
  const firstAnswerAfter = outcomes.find((o) => o.status === 200 && o.at > returnedAt);
  expect((firstAnswerAfter?.at ?? Number.POSITIVE_INFINITY) - returnedAt).toBeLessThan(10_000);
  await expectStoredAndVerified(answered);
}, 120_000);
