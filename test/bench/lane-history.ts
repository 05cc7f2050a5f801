// LANE_HISTORY and answered calls over a big receipt log, not a test:
// `bun test/bench/lane-history.ts [receipts=5000000]`. Builds a file database with that many
// receipts (a few hundred answered through the real app, the rest bulk-inserted straight into the
// table from those, each a real leaf with its own id, time and hash), starts the app on it (the log
// adds the bulk rows to its tiles and signs a checkpoint), then times LANE_HISTORY pages through
// `app.handle`, and answered rate lookups (32 at a time) against the same on an empty database in
// the same run (interleaved rounds, medians). Prints JSON; deletes the database at the end.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { ManualClock } from "../../src/clock.ts";
import { openDatabase, type Db } from "../../src/db/client.ts";
import { DEFAULT_LIMITS, type LimitsTable } from "../../src/metering/limits.ts";
import { composeBody } from "../../src/receipts/compact-body.ts";
import type { ReceiptRow } from "../../src/receipts/rows/types.ts";
import { newId } from "../../src/ids.ts";
import { createRuntime } from "../../src/runtime.ts";
import { accountWithKey } from "../support/accounts.ts";
import { findOwnReceipt } from "../../src/receipts/store.ts";
import { laneHistory as laneHistoryReport } from "../../src/skills/audit-report/lane-history.ts";
import { utcDateOf } from "../../src/dates.ts";
import { defined } from "../support/defined.ts";

const TOTAL = Number(process.argv[2] ?? 5_000_000);
const ACCOUNTS = 20;
const LANES = [
  ["Chicago, IL", "Dallas, TX"],
  ["Atlanta, GA", "Miami, FL"],
  ["Denver, CO", "Phoenix, AZ"],
  ["Seattle, WA", "Portland, OR"],
  ["Memphis, TN", "Houston, TX"],
  ["Columbus, OH", "Newark, NJ"],
  ["Kansas City, MO", "Omaha, NE"],
  ["Los Angeles, CA", "Las Vegas, NV"],
] as const;
const DAY = 86_400_000;
const START = Date.parse("2026-06-01T00:00:00Z");
/** The bulk rows spread over this many days after the seed calls; the reports are asked at the end. */
const SPAN_DAYS = 180;
const NOW = START + SPAN_DAYS * DAY + DAY;
const LIMITS: LimitsTable = { ...DEFAULT_LIMITS, enterprise: { perMinute: 1e9, perMonth: 1e12 } };

const dir = mkdtempSync(join(process.cwd(), ".tmp", "lane-history-"));
const quantile = (sorted: number[], q: number) =>
  defined(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))], "the quantile");
const ms = (value: number) => Math.round(value * 100) / 100;

async function open(file: string, clock: ManualClock) {
  const db = openDatabase(file);
  const runtime = await createRuntime({ db, clock, limits: LIMITS });
  const app = createApp(runtime, {});
  const close = () => {
    runtime.close();
    db.$client.close();
  };
  return { db, runtime, app, close };
}

const post = (key: string, json: unknown) =>
  new Request("http://localhost/v1/rates/lookup", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(json),
  });

/** µs per answered call, `count` calls 32 at a time. */
async function answeredMicros(
  app: Awaited<ReturnType<typeof open>>["app"],
  key: string,
  count: number,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i += 32) {
    const calls = Array.from({ length: Math.min(32, count - i) }, (_, j) => {
      const [origin, destination] = defined(LANES[(i + j) % LANES.length], "LANES[(i + j) % LANES.length]");
      return app.handle(post(key, { origin, destination, equipment: "DRY_VAN" })).then(async (response) => {
        if (response.status !== 200) throw new Error(`answered call got ${response.status}: ${await response.text()}`);
      });
    });
    await Promise.all(calls);
  }
  return ((performance.now() - started) * 1000) / count;
}

/** A seed receipt as read back for copying: the stored row's parts, its digests as hex and its texts. */
type SeedRow = Pick<
  ReceiptRow,
  "skill" | "accountId" | "principalPart" | "requestPart" | "factorsPart" | "modelPart" | "asOf"
> & {
  responseSha256: string;
  lane: string;
  principal: string;
  request: string;
  requestSha256: string;
  factors: string;
  model: string;
};

/** Copies of the seed receipts, each a new receipt with its own id, times, index and leaf entry. */
function bulkInsert(db: Db, seeds: SeedRow[], from: number, to: number): void {
  const insert = db.$client.prepare(
    `INSERT INTO receipts (seq, id, issued_at, skill, account_id, principal_part, request_part, factors_part, model_part,
                           as_of, known_at, response_sha256, hash, lane)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const stepMs = (SPAN_DAYS * DAY) / (to - from);
  const CHUNK = 100_000;
  for (let chunk = from; chunk < to; chunk += CHUNK) {
    db.$client.transaction(() => {
      for (let seq = chunk + 1; seq <= Math.min(to, chunk + CHUNK); seq++) {
        const seed = defined(seeds[seq % seeds.length], "seeds[seq % seeds.length]");
        const issuedAt = Math.floor(START + (seq - from) * stepMs);
        const id = newId("rcpt", issuedAt);
        const body = composeBody({ ...seed, logIndex: seq - 1, id, issuedAt, knownAt: issuedAt });
        insert.run(
          seq,
          id,
          issuedAt,
          seed.skill,
          seed.accountId,
          seed.principalPart,
          seed.requestPart,
          seed.factorsPart,
          seed.modelPart,
          seed.asOf,
          issuedAt,
          Buffer.from(seed.responseSha256, "hex"),
          Bun.SHA256.hash(body) as Uint8Array,
          seed.lane,
        );
      }
    })();
  }
}

try {
  const file = join(dir, "big.db");
  const clock = new ManualClock(START);
  // 1. Real receipts through the app: every account asks every lane once.
  let app = await open(file, clock);
  const keys = await Promise.all(
    Array.from({ length: ACCOUNTS }, () => accountWithKey(app.db, clock.now(), "enterprise")),
  );
  for (const { key } of keys) await answeredMicros(app.app, key, LANES.length);
  const seeds = app.db.$client
    .query<SeedRow, []>(
      `SELECT r.skill, r.account_id AS accountId, r.principal_part AS principalPart, r.request_part AS requestPart,
              r.factors_part AS factorsPart, r.model_part AS modelPart, r.as_of AS asOf, lower(hex(r.response_sha256)) AS responseSha256,
              r.lane, p.text AS principal, q.text AS request, lower(hex(q.sha256)) AS requestSha256, f.text AS factors, m.text AS model
         FROM receipts r JOIN receipt_parts p ON p.id = r.principal_part JOIN receipt_parts q ON q.id = r.request_part
         JOIN receipt_parts f ON f.id = r.factors_part JOIN receipt_parts m ON m.id = r.model_part ORDER BY r.seq`,
    )
    .all();
  const seeded = seeds.length;
  app.close();

  // 2. The bulk, straight into the table; then a start adds it to the log.
  let started = performance.now();
  const bulk = openDatabase(file);
  bulkInsert(bulk, seeds, seeded, TOTAL);
  bulk.$client.close();
  const bulkSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  clock.advance(NOW - START);
  app = await open(file, clock);
  const startSeconds = (performance.now() - started) / 1000;

  // 3. LANE_HISTORY: the newest page of an account's lane (default 100 and the largest, 500), and a page from a cursor.
  const { key } = defined(keys[0], "keys[0]");
  const anchor = defined(
    app.db.$client
      .query<{ id: string }, [string]>("SELECT id FROM receipts WHERE account_id = ? ORDER BY seq DESC LIMIT 1")
      .get(defined(keys[0], "keys[0]").accountId),
    "the row of SELECT id FROM receipts WHERE account_id = ? ORDER BY seq DESC LIMIT 1",
  ).id;
  const laneHistory = async (query: string) => {
    const response = await app.app.handle(
      new Request(`http://localhost/v1/reports/audit?receipt_id=${anchor}&report_type=LANE_HISTORY${query}`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    if (response.status !== 200) throw new Error(`LANE_HISTORY got ${response.status}: ${await response.text()}`);
    return (await response.json()) as {
      count: number;
      next_cursor: string | null;
      receipts: { answer_reproduced: boolean | null }[];
    };
  };
  const timed = async (query: string, runs: number) => {
    const times: number[] = [];
    let page = await laneHistory(query); // warm
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      page = await laneHistory(query);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const reproduced = page.receipts.filter((receipt) => receipt.answer_reproduced === true).length;
    return {
      rows: page.count,
      reproduced,
      p50_ms: ms(quantile(times, 0.5)),
      p95_ms: ms(quantile(times, 0.95)),
      max_ms: ms(defined(times.at(-1), "the last of times")),
    };
  };
  const firstPage = await laneHistory("");
  const result = {
    receipts: TOTAL,
    database_mb: Math.round(statSync(file).size / 1e6),
    bulk_insert_s: Math.round(bulkSeconds),
    start_with_log_catch_up_s: Math.round(startSeconds * 10) / 10,
    lane_history_page_100: await timed("", 30),
    lane_history_page_500: await timed("&limit=500", 10),
    lane_history_from_cursor: await timed(`&cursor=${firstPage.next_cursor}`, 30),
    lane_history_report_only: await (async () => {
      // The report itself (index range, bodies, shared re-runs), without the call's HTTP, metering and own receipt.
      const instance = app.runtime;
      const own = await findOwnReceipt(app.db, anchor, defined(keys[0], "keys[0]").accountId);
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        await laneHistoryReport(instance, own, {}, utcDateOf(NOW));
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      return { p50_ms: ms(quantile(times, 0.5)), p95_ms: ms(quantile(times, 0.95)) };
    })(),
    lane_history_index_only_ms: (() => {
      // The index range alone (no re-run of the answers): what the page costs the database.
      const query = app.db.$client.prepare(
        "SELECT seq FROM receipts WHERE account_id = ? AND lane = ? AND issued_at >= ? AND issued_at < ? ORDER BY issued_at DESC, seq DESC LIMIT 101",
      );
      const t0 = performance.now();
      for (let i = 0; i < 100; i++)
        query.all(
          defined(keys[i % ACCOUNTS], "keys[i % ACCOUNTS]").accountId,
          "chicago, il\ndallas, tx",
          NOW - 90 * DAY,
          NOW + DAY,
        );
      return ms((performance.now() - t0) / 100);
    })(),
    query_plan: app.db.$client
      .query<{ detail: string }, []>(
        "EXPLAIN QUERY PLAN SELECT seq FROM receipts r WHERE r.account_id = 'a' AND r.lane = 'l' AND r.issued_at >= 0 AND r.issued_at < 1 AND r.seq < 9 ORDER BY r.issued_at DESC, r.seq DESC LIMIT 101",
      )
      .all()
      .map((row) => row.detail),
    // Answered calls on this log and on an empty database, interleaved rounds, medians.
    ...(await (async () => {
      const empty = await open(join(dir, "empty.db"), new ManualClock(NOW));
      const { key: emptyKey } = await accountWithKey(empty.db, NOW, "enterprise");
      const withLog: number[] = [];
      const withoutLog: number[] = [];
      for (let round = 0; round < 5; round++) {
        withLog.push(await answeredMicros(app.app, key, 1000));
        withoutLog.push(await answeredMicros(empty.app, emptyKey, 1000));
      }
      empty.close();
      const median = (values: number[]) =>
        Math.round(defined(values.sort((a, b) => a - b)[Math.floor(values.length / 2)], "the median"));
      return { answered_us_per_call_with_log: median(withLog), answered_us_per_call_empty: median(withoutLog) };
    })()),
  };
  app.close();
  console.log(JSON.stringify(result, null, 1));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
