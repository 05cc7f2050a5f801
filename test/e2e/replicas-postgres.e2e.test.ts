/**
 * Three replicas of the compiled binary on one throw-away PostgreSQL cluster, reached round robin
 * the way a load balancer without affinity spreads calls (docs/deployment.md). Every replica must
 * agree exactly: the month quota, the per-minute window, a revoked key, and one receipt log that
 * loses no answered call when a replica is killed with SIGKILL.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryFolderForFile, runCli } from "../support/binary.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { type LookupOutcome, loadWithKill, rateLookupAt } from "../support/lookup-load.ts";
import { accountKeyOn, cliOn, startReplicas, type ReplicaSet } from "../support/replicas.ts";
import { defined } from "../support/defined.ts";

const folder = binaryFolderForFile();
const REPLICAS = 3;
const MONTH_LIMIT = 30;
const MINUTE_LIMIT = 12;
const LIMITS = {
  explorer: { per_minute: 100_000, per_month: MONTH_LIMIT },
  starter: { per_minute: MINUTE_LIMIT, per_month: 1_000_000 },
  enterprise: { per_minute: 100_000_000, per_month: 1_000_000_000 },
};
const PASSWORD = "replica suite passphrase";

let postgres: TestPostgres;
/** The replicas' database: a fresh one in the run's shared cluster, or in a cluster of this file's own. */
let databaseUrl: string;
let set: ReplicaSet;
let sql: SQL;
/** Every answer (200) any test got, with the log index it was given: the log must hold each exactly once. */
const answered: { receiptId: string; logIndex: number }[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  databaseUrl = await postgres.freshDatabase();
  const migrated = runCli(folder.exe, ["migrate", "--database", databaseUrl, "--json"], folder.dir);
  if (migrated.exitCode !== 0) throw new Error(`waybill migrate failed (${migrated.exitCode}): ${migrated.stderr}`);
  set = await startReplicas(folder.exe, REPLICAS, databaseUrl, {
    cwd: folder.dir,
    env: { WAYBILL_LIMITS: JSON.stringify(LIMITS), WAYBILL_LOG_ORIGIN: "replicas.example.test/log" },
  });
  sql = new SQL(databaseUrl);
}, 240_000);

afterAll(async () => {
  await set?.stop();
  await sql?.close();
  await postgres?.stop();
});

type Outcome = LookupOutcome;

/** One rate lookup at `base`, remembering every answer for the log check. */
async function lookup(base: string, key: string): Promise<Outcome> {
  const outcome = await rateLookupAt(base, key);
  if (outcome.status === 200)
    answered.push({ receiptId: String(outcome.body.receipt_id), logIndex: Number(outcome.body.log_index) });
  return outcome;
}

/** `count` calls at once, each to the next replica in turn. */
const spread = (key: string, count: number) =>
  Promise.all(Array.from({ length: count }, () => lookup(set.next(), key)));
const withStatus = (outcomes: Outcome[], status: number) =>
  outcomes.filter((o): o is { status: number; body: Record<string, unknown> } => o.status === status);

async function accountIdOf(email: string): Promise<string> {
  const [row] = await sql`select id from accounts where email = ${email}`;
  return row.id as string;
}

/** The routes a key opens besides skill calls, each with the status and error code it answered. */
async function routesRefusing(base: string, key: string): Promise<RouteOutcomes> {
  const authorization = `Bearer ${key}`;
  const requests: Record<string, RequestInit & { path: string }> = {
    usage: { path: "/v1/usage" },
    events: { path: "/v1/events" },
    skills: { path: "/v1/skills" },
    "mcp tools/list": {
      path: "/mcp",
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    },
  };
  const outcomes: RouteOutcomes = {};
  for (const [name, { path, ...init }] of Object.entries(requests)) {
    const response = await fetch(base + path, { ...init, headers: { ...init.headers, authorization } });
    outcomes[name] = [response.status, ((await response.json()) as { error?: unknown }).error];
  }
  return outcomes;
}
type RouteOutcomes = Record<string, [number, unknown]>;
const EVERY_ROUTE_ANSWERED: RouteOutcomes = {
  usage: [200, undefined],
  events: [200, undefined],
  skills: [200, undefined],
  "mcp tools/list": [200, undefined],
};
const EVERY_ROUTE_REVOKED: RouteOutcomes = Object.fromEntries(
  Object.keys(EVERY_ROUTE_ANSWERED).map((name) => [name, [401, "REVOKED_API_KEY"]]),
);

describe("three replicas on one PostgreSQL", () => {
  test("the month quota never overshoots: N concurrent calls spread over the replicas with L left → exactly L answered", async () => {
    const key = accountKeyOn(folder.exe, databaseUrl, folder.dir, "month@example.com", "explorer");
    const spentBefore = 5;
    for (let i = 0; i < spentBefore; i++) expect((await lookup(set.next(), key)).status).toBe(200);
    const left = MONTH_LIMIT - spentBefore;
    const n = 90;
    const outcomes = await spread(key, n);
    expect(withStatus(outcomes, 200)).toHaveLength(left);
    const refused = withStatus(outcomes, 429);
    expect(refused).toHaveLength(n - left);
    expect(refused.every((o) => o.body.window === "month")).toBe(true);

    const accountId = await accountIdOf("month@example.com");
    const [month] =
      await sql`select coalesce(sum(answered), 0)::int as n from monthly_usage where account_id = ${accountId}`;
    const [rows] =
      await sql`select count(*)::int as n from receipts where account_id = ${accountId} and request_id is not null`;
    expect(month.n).toBe(MONTH_LIMIT);
    expect(rows.n).toBe(MONTH_LIMIT);
  }, 120_000);

  test("the per-minute limit holds across replicas: never more than the limit in any rolling minute per key", async () => {
    const key = accountKeyOn(folder.exe, databaseUrl, folder.dir, "minute@example.com", "starter");
    const burst = () => spread(key, 3 * MINUTE_LIMIT);

    const first = await burst();
    const firstDone = Date.now();
    expect(withStatus(first, 200)).toHaveLength(MINUTE_LIMIT);
    expect(withStatus(first, 429).every((o) => o.body.window === "minute")).toBe(true);

    await Bun.sleep(25_000); // well inside the same minute: the window is still full on every replica
    const second = await burst();
    expect(withStatus(second, 200)).toHaveLength(0);
    expect(withStatus(second, 429)).toHaveLength(3 * MINUTE_LIMIT);

    await Bun.sleep(Math.max(0, firstDone + 61_000 - Date.now())); // the first burst has left the window
    const third = await burst();
    expect(withStatus(third, 200)).toHaveLength(MINUTE_LIMIT);

    // Every answered call's recorded time, from every replica: no 60 s span holds more than the limit.
    const accountId = await accountIdOf("minute@example.com");
    const rows =
      await sql`select known_at::float8 as at from receipts where account_id = ${accountId} and request_id is not null order by known_at`;
    const times = rows.map((row: { at: number }) => Number(row.at));
    expect(times).toHaveLength(2 * MINUTE_LIMIT);
    const busiest = Math.max(...times.map((t: number) => times.filter((u: number) => u >= t && u < t + 60_000).length));
    expect(busiest).toBe(MINUTE_LIMIT);
  }, 180_000);

  test("a key revoked on one replica's dashboard (signed in on any), or by the CLI, is refused by every replica on its next request", async () => {
    const email = "revoke@example.com";
    const first = accountKeyOn(folder.exe, databaseUrl, folder.dir, email, "enterprise", PASSWORD);
    // Each replica has seen the key answered, so each holds it as valid.
    for (const replica of set.replicas) expect((await lookup(replica.url, first)).status).toBe(200);

    const dashboard = defined(set.replicas[0], "the first replica").url;
    const form = (fields: Record<string, string>, cookie?: string) => ({
      method: "POST",
      redirect: "manual" as const,
      headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
    const signedIn = await fetch(`${dashboard}/signin`, form({ email, password: PASSWORD }));
    expect(signedIn.status).toBe(303);
    const cookie = defined((signedIn.headers.get("set-cookie") ?? "").split(";")[0], "the session cookie");
    // The session lives in the database: every replica knows it, and hands out the same CSRF token for it.
    const tokens = new Set<string | undefined>();
    for (const replica of set.replicas) {
      const page = await fetch(`${replica.url}/dashboard/keys`, { headers: { cookie } });
      expect(page.status).toBe(200);
      tokens.add(/name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1]);
    }
    expect(tokens.size).toBe(1);
    const [csrf] = tokens;
    const revoked = await fetch(
      `${dashboard}/dashboard/keys/revoke`,
      form({ _csrf: defined(csrf, "the CSRF token") }, cookie),
    );
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toContain("is revoked");
    for (const replica of [...set.replicas].reverse()) {
      const outcome = await lookup(replica.url, first);
      expect(outcome).toMatchObject({ status: 401, body: { error: "REVOKED_API_KEY" } });
      expect(await routesRefusing(replica.url, first)).toEqual(EVERY_ROUTE_REVOKED);
    }

    const second = (
      JSON.parse(cliOn(folder.exe, databaseUrl, folder.dir, ["keys", "create", "--email", email, "--json"])) as {
        key: string;
      }
    ).key;
    for (const replica of set.replicas) expect((await lookup(replica.url, second)).status).toBe(200);
    for (const replica of set.replicas) expect(await routesRefusing(replica.url, second)).toEqual(EVERY_ROUTE_ANSWERED);
    cliOn(folder.exe, databaseUrl, folder.dir, ["keys", "revoke", "--email", email]);
    // Not only skill calls: every route a key opens, on every replica, at once after the CLI returns.
    for (const replica of set.replicas) expect(await routesRefusing(replica.url, second)).toEqual(EVERY_ROUTE_REVOKED);
    for (const replica of set.replicas) {
      const outcome = await lookup(replica.url, second);
      expect(outcome).toMatchObject({ status: 401, body: { error: "REVOKED_API_KEY" } });
    }
  }, 120_000);

  test("kill -9 of a replica under load loses no answered call: every 200 has its receipt carrying its usage after the restart", async () => {
    const email = "crash@example.com";
    const key = accountKeyOn(folder.exe, databaseUrl, folder.dir, email, "enterprise");
    const victim = 1;
    const victimReplica = defined(set.replicas[victim], "the replica to kill");
    const { outcomes, killed } = await loadWithKill({
      total: 240,
      workers: 16,
      killAfter: 60,
      call: () => lookup(set.next(), key),
      kill: () => victimReplica.process.kill("SIGKILL"),
    });
    expect(killed).toBe(true);
    expect(outcomes.some((o) => o.status === "no answer")).toBe(true); // the kill landed with calls in flight
    expect(outcomes.every((o) => o.status === 200 || o.status === "no answer")).toBe(true);

    const restarted = await set.restart(victim);
    expect((await fetch(`${restarted.url}/readyz`)).status).toBe(200);
    expect((await lookup(restarted.url, key)).status).toBe(200);

    const answeredHere = withStatus(outcomes, 200).map((o) => String(o.body.receipt_id));
    const accountId = await accountIdOf(email);
    const stored =
      await sql`select id from receipts where account_id = ${accountId} and request_id is not null and key_id is not null`;
    const withUsage = new Set(stored.map((row: { id: string }) => row.id));
    expect(answeredHere.filter((id) => !withUsage.has(id))).toEqual([]);
    const [month] =
      await sql`select coalesce(sum(answered), 0)::int as n from monthly_usage where account_id = ${accountId}`;
    const [rows] =
      await sql`select count(*)::int as n from receipts where account_id = ${accountId} and request_id is not null`;
    expect(rows.n).toBeGreaterThanOrEqual(answeredHere.length + 1); // calls committed just before the kill cut their answer count too
    expect(month.n).toBe(rows.n);
  }, 180_000);

  test("kill -9 of a replica while an account spends its month: only calls to it fail, the others keep answering, the quota stays exact", async () => {
    const email = "crash-quota@example.com";
    const key = accountKeyOn(folder.exe, databaseUrl, folder.dir, email, "explorer");
    const victim = 2;
    const victimReplica = set.replicas[victim];
    if (!victimReplica) throw new Error("no replica to kill");
    const victimUrl = victimReplica.url;
    let killedAt = -1;
    const { outcomes, killed } = await loadWithKill({
      total: 90,
      workers: 12,
      killAfter: 8,
      call: async () => {
        const base = set.next();
        return { ...(await lookup(base, key)), base };
      },
      kill: () => {
        killedAt = answered.length; // answers (200s) any test had got when the kill landed
        victimReplica.process.kill("SIGKILL");
      },
    });
    expect(killed).toBe(true);
    // A call fails only by losing its answer with the killed replica; every other is answered or refused by the quota.
    const statuses = outcomes.map((o) => (o.status === 429 ? `429 ${String(o.body.error)}` : String(o.status)));
    expect(statuses.filter((s) => !["200", "no answer", "429 RATE_LIMITED"].includes(s))).toEqual([]);
    expect(outcomes.filter((o) => o.status === "no answer" && o.base !== victimUrl)).toEqual([]);
    // The surviving replicas kept answering after the kill.
    expect(answered.length).toBeGreaterThan(killedAt);
    const answeredHere = withStatus(outcomes, 200);
    expect(answeredHere.length).toBeLessThanOrEqual(MONTH_LIMIT);

    await set.restart(victim);
    // The month is used up exactly: as many counted as stored receipts, both the limit, and every replica refuses.
    const accountId = await accountIdOf(email);
    const [month] =
      await sql`select coalesce(sum(answered), 0)::int as n from monthly_usage where account_id = ${accountId}`;
    const [rows] =
      await sql`select count(*)::int as n from receipts where account_id = ${accountId} and request_id is not null`;
    expect({ month: month.n, receipts: rows.n }).toEqual({ month: MONTH_LIMIT, receipts: MONTH_LIMIT });
    for (const replica of set.replicas) {
      const refused = await lookup(replica.url, key);
      expect(refused).toMatchObject({ status: 429, body: { error: "RATE_LIMITED", window: "month" } });
    }
  }, 180_000);

  test("a receipt answered by one replica is audited through another, shown on a third's dashboard, and verified offline", async () => {
    const email = "audit@example.com";
    const key = accountKeyOn(folder.exe, databaseUrl, folder.dir, email, "enterprise", PASSWORD);
    const [a, b, c] = set.replicas.map((replica) => replica.url) as [string, string, string];
    const answer = await lookup(a, key);
    expect(answer.status).toBe(200);
    const receiptId = String((answer as { body: Record<string, unknown> }).body.receipt_id);
    // More receipts from the other replicas: B proves A's receipt under a checkpoint it did not sign itself.
    for (const base of [c, b, c]) expect((await lookup(base, key)).status).toBe(200);

    const audit = async (base: string, query: string) => {
      const response = await fetch(`${base}/v1/reports/audit?receipt_id=${receiptId}${query}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as Record<string, unknown>;
      expect({ status: response.status, error: body.error }).toEqual({ status: 200, error: undefined });
      answered.push({ receiptId: String(body.receipt_id), logIndex: Number(body.log_index) });
      return body;
    };
    const trace = (await audit(b, "")) as {
      log: { log_index: number; tree_size: number; checkpoint: string };
      verification: Record<string, unknown>;
    };
    expect(trace).toMatchObject({ audited_receipt_id: receiptId, report_type: "RECEIPT_TRACE" });
    expect(trace.verification).toMatchObject({
      hash_valid: true,
      included: true,
      record_matches_body: true,
      reproducible: true,
      problems: [],
    });
    expect(trace.log.tree_size).toBeGreaterThan(trace.log.log_index + 3);
    expect(trace.log.checkpoint).toStartWith(`replicas.example.test/log\n${trace.log.tree_size}\n`);
    const history = (await audit(c, "&report_type=LANE_HISTORY")) as {
      receipts: { receipt_id: string; answer_reproduced: boolean | null }[];
    };
    expect(history.receipts.map((r) => r.receipt_id)).toContain(receiptId);
    expect(history.receipts.every((r) => r.answer_reproduced === true)).toBe(true);
    expect(((await audit(a, "&report_type=DATA_SOURCES")) as { series: unknown[] }).series.length).toBeGreaterThan(10);

    // The saved report, its checkpoint and the published key: `waybill verify` needs no database.
    const publicKey = await (await fetch(`${c}/v1/receipts/public-key`)).text();
    writeFileSync(join(folder.dir, "replica-report.json"), JSON.stringify(trace));
    writeFileSync(join(folder.dir, "replica-checkpoint.txt"), trace.log.checkpoint);
    writeFileSync(join(folder.dir, "replica-key.json"), publicKey);
    writeFileSync(
      join(folder.dir, "replica-answer.json"),
      JSON.stringify((answer as { body: Record<string, unknown> }).body),
    );
    const verified = runCli(
      folder.exe,
      [
        "verify",
        "--receipt",
        "replica-report.json",
        "--checkpoint",
        "replica-checkpoint.txt",
        "--key",
        "replica-key.json",
        "--response",
        "replica-answer.json",
      ],
      folder.dir,
    );
    expect(verified.stdout.trim().split("\n").at(-1)).toBe("valid");
    expect(verified.exitCode).toBe(0);

    // The dashboard's receipt page on the third replica shows the same proof.
    const signedIn = await fetch(`${c}/signin`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD }).toString(),
    });
    expect(signedIn.status).toBe(303);
    const cookie = defined((signedIn.headers.get("set-cookie") ?? "").split(";")[0], "the session cookie");
    const page = await fetch(`${c}/dashboard/receipts/${receiptId}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(receiptId);
    expect(html).toContain("Transparency log");
    expect(html).toContain("replicas.example.test/log");
    // Its download is the same trace, and `waybill verify` takes it as it is.
    const download = await fetch(`${c}/dashboard/receipts/${receiptId}/report.json`, { headers: { cookie } });
    expect(download.status).toBe(200);
    const downloaded = (await download.json()) as typeof trace;
    expect(downloaded.verification).toMatchObject({ included: true, problems: [] });
    writeFileSync(join(folder.dir, "replica-download.json"), JSON.stringify(downloaded));
    writeFileSync(join(folder.dir, "replica-download-checkpoint.txt"), downloaded.log.checkpoint);
    const fromDashboard = runCli(
      folder.exe,
      [
        "verify",
        "--receipt",
        "replica-download.json",
        "--checkpoint",
        "replica-download-checkpoint.txt",
        "--key",
        "replica-key.json",
        "--response",
        "replica-answer.json",
      ],
      folder.dir,
    );
    expect(fromDashboard.stdout.trim().split("\n").at(-1)).toBe("valid");
  }, 120_000);

  test("receipts from every replica form one log: each answer exactly once, in one order, and `receipts verify` passes", async () => {
    expect(answered.length).toBeGreaterThan(100);
    const log = await sql`select id, seq::float8 as seq from receipts order by seq`;
    const seqById = new Map<string, number>(log.map((row: { id: string; seq: number }) => [row.id, Number(row.seq)]));
    expect(seqById.size).toBe(log.length); // no receipt id twice
    // One total order with no gaps: seq 1..n, and log index = seq - 1 as each answer was told.
    expect(log.map((row: { seq: number }) => Number(row.seq))).toEqual(
      Array.from({ length: log.length }, (_, i) => i + 1),
    );
    expect(answered.filter((a) => seqById.get(a.receiptId) !== a.logIndex + 1)).toEqual([]);
    expect(new Set(answered.map((a) => a.receiptId)).size).toBe(answered.length);

    const verified = runCli(folder.exe, ["receipts", "verify", "--json", "--database", databaseUrl], folder.dir);
    expect(verified.exitCode).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, checked: log.length });
  }, 120_000);
});
