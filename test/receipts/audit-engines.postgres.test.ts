import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Principal } from "../../src/access/principal.ts";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase, type Db, type Store } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { openStore } from "../../src/db/open.ts";
import type { PostgresStore } from "../../src/db/postgres.ts";
import { utcDateOf } from "../../src/dates.ts";
import { ApiError } from "../../src/errors.ts";
import { validateInput } from "../../src/pipeline/validate.ts";
import { openReceiptLedger, type WaybillReceiptLedger } from "../../src/receipts/receipt-ledger.ts";
import { retractImport } from "../../src/reference/storage/retract.ts";
import type { ReferenceData } from "../../src/reference/storage/view.ts";
import { laneRange } from "../../src/skills/audit-report/lane-history.ts";
import { auditReportSkill } from "../../src/skills/audit-report/skill.ts";
import type { ReceiptTrace } from "../../src/skills/audit-report/trace.ts";
import type { AnyReadingDeclaration, SkillInstance } from "../../src/skills/types.ts";
import { usePostgres } from "../support/postgres.ts";
import { openLedger, seedPrincipal } from "./fixtures.ts";
import { answerAndRecord, dieselRateSkill, seedReference } from "./reference-fixture.ts";
import { portableLedgerStorage } from "../../src/receipts/ledger-storage.ts";

/**
 * The audit report on both engines over the same stored rows: a log, its checkpoints, accounts and
 * reference rows are written on a SQLite file, copied row for row into a PostgreSQL database, and
 * every report kind must answer the same JSON on both (docs/postgresql.md, "Reading skills").
 */
const postgres = usePostgres();

const JAN = Date.parse("2026-01-10T12:00:00Z");
const FEB = Date.parse("2026-02-10T12:00:00Z");
const MAR = Date.parse("2026-03-10T12:00:00Z");
const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
const ORIGIN = "waybill.test/log";

/** Every table the reports read, parents before children. */
const COPIED = [
  "accounts",
  "apiKeys",
  "signingKeys",
  "dataImports",
  "observations",
  "dataRetractions",
  "receiptParts",
  "receipts",
  "logTiles",
  "logCheckpoints",
  "settings",
] as const;

async function copyRows(from: Db, to: Store): Promise<void> {
  for (const name of COPIED) {
    const rows = await from.select().from(from.t[name] as typeof from.t.accounts);
    if (rows.length > 0) await to.insert(to.t[name] as typeof to.t.accounts).values(rows);
  }
}

let sqlite: Db;
let pg: PostgresStore;
let closePg: () => Promise<void>;
let reference: ReferenceData;
let owner: Principal;
let stranger: Principal;
let sqliteLog: WaybillReceiptLedger;
let pgLedger: WaybillReceiptLedger;
const receipts: Record<"jan" | "feb" | "retracted" | "audit" | "strangers", string> = {
  jan: "",
  feb: "",
  retracted: "",
  audit: "",
  strangers: "",
};

beforeAll(async () => {
  sqlite = openMemoryDatabase();
  const ledger = await openLedger(sqlite, { clock: new ManualClock(JAN) });
  sqliteLog = ledger.ledger;
  reference = seedReference(sqlite, [
    { seriesId: "DIESEL", observedOn: "2026-01-05", value: 3.5, importId: "imp_jan", fetchedAt: JAN - 3600_000 },
    { seriesId: "DIESEL", observedOn: "2026-02-02", value: 3.8, importId: "imp_feb", fetchedAt: FEB - 3600_000 },
    { seriesId: "DIESEL", observedOn: "2026-01-05", value: 3.55, importId: "imp_rev", fetchedAt: JAN + 86_400_000 },
    { seriesId: "PPI_TRUCK", observedOn: "2025-12-01", value: 181.2, importId: "imp_jan", fetchedAt: JAN - 3600_000 },
    {
      seriesId: "ATA_TONNAGE_SA",
      observedOn: "2025-12-01",
      value: 114.1,
      importId: "imp_ata",
      fetchedAt: JAN - 3600_000,
    },
  ]);
  owner = seedPrincipal(sqlite, { tier: "professional", scopes: ["rate-lookup", "audit-report"] });
  stranger = seedPrincipal(sqlite, { tier: "enterprise" });
  const rate = dieselRateSkill();
  const record = async (skill: AnyReadingDeclaration, who: Principal, request: Record<string, unknown>, at: number) =>
    (await answerAndRecord(sqlite, ledger, reference, skill, who, request, at)).receipt.id;
  receipts.jan = await record(rate, owner, LANE, JAN);
  receipts.strangers = await record(rate, stranger, LANE, JAN + 1000);
  receipts.feb = await record(rate, owner, { ...LANE, origin: "  chicago, il " }, FEB);
  await record(rate, owner, { ...LANE, destination: "Denver, CO" }, FEB + 1000);
  for (const at of [MAR - 3000, MAR - 2000, MAR - 1000]) await record(rate, owner, LANE, at);
  receipts.audit = await record(
    auditReportSkill,
    owner,
    { receipt_id: receipts.jan, report_type: "RECEIPT_TRACE" },
    MAR,
  );
  receipts.retracted = receipts.jan;
  await retractImport(sqlite, "imp_jan", "EIA corrected the week", FEB);

  const opened = await openStore({ dialect: "postgres", url: await postgres.freshDatabase() });
  pg = opened.store as PostgresStore;
  closePg = opened.close;
  await copyRows(sqlite, pg);
  // The copied log as a replica finds it on start: same head, same signing key.
  pgLedger = await openReceiptLedger(pg, portableLedgerStorage(pg), { clock: new ManualClock(MAR), origin: ORIGIN });
});

afterAll(async () => {
  await closePg?.();
  sqlite?.$client.close();
});

const instanceOn = (engine: "sqlite" | "postgres", perGallon = 0.5): SkillInstance => ({
  db: engine === "sqlite" ? sqlite : pg,
  reference,
  skills: [dieselRateSkill(perGallon), auditReportSkill],
  log: engine === "sqlite" ? sqliteLog.log : pgLedger.log,
});

async function audit(
  engine: "sqlite" | "postgres",
  caller: Principal,
  input: Record<string, unknown>,
  perGallon = 0.5,
) {
  const validated = validateInput(auditReportSkill.input, input, "query") as never;
  return auditReportSkill.handler(validated, {
    data: reference.view(utcDateOf(MAR), MAR),
    caller,
    instance: instanceOn(engine, perGallon),
  });
}

/** The same report on both engines: equal, and returned for the test's own checks. */
async function sameOnBoth(input: Record<string, unknown>, perGallon = 0.5) {
  const onSqlite = await audit("sqlite", owner, input, perGallon);
  const onPostgres = await audit("postgres", owner, input, perGallon);
  expect(onPostgres).toEqual(onSqlite);
  return onPostgres.answer;
}

describe("the audit report answers the same on PostgreSQL as on SQLite", () => {
  test("RECEIPT_TRACE: provenance, retraction, inclusion proof and signed checkpoint, all checks passing", async () => {
    const trace = (await sameOnBoth({ receipt_id: receipts.retracted })) as ReceiptTrace;
    expect(trace.verification).toMatchObject({
      hash_valid: true,
      included: true,
      record_matches_body: true,
      reproducible: true,
      problems: [],
    });
    expect(trace.data_sources[0]).toMatchObject({
      import_id: "imp_jan",
      source: "eia",
      retraction: { reason: "EIA corrected the week" },
    });
    expect(trace.log.tree_size).toBe(8);
    expect(trace.log.checkpoint).toStartWith(`${ORIGIN}\n8\n`);
  });

  test("RECEIPT_TRACE of an audit's own receipt: listed, not re-run", async () => {
    const trace = (await sameOnBoth({ receipt_id: receipts.audit })) as ReceiptTrace;
    expect(trace).toMatchObject({ skill: "audit-report", verification: { included: true, reproducible: null } });
  });

  test("RECEIPT_TRACE after the model changed: the older model version is named, not called a mismatch", async () => {
    const trace = (await sameOnBoth({ receipt_id: receipts.feb }, 0.6)) as ReceiptTrace;
    expect(trace.verification).toMatchObject({
      reproducible: null,
      reproduction: { answer_matches: null, factor_versions_match: true },
    });
    expect(trace.verification.reproduction.detail).toContain("signed under diesel-rate/0.5");
  });

  test("LANE_HISTORY: the lane's receipts newest first, page by page with the same cursors", async () => {
    const first = (await sameOnBoth({
      receipt_id: receipts.jan,
      report_type: "LANE_HISTORY",
      from: "2026-01-01",
      limit: 3,
    })) as {
      receipts: { receipt_id: string }[];
      next_cursor: string | null;
    };
    expect(first.receipts).toHaveLength(3);
    const second = (await sameOnBoth({
      receipt_id: receipts.jan,
      report_type: "LANE_HISTORY",
      from: "2026-01-01",
      limit: 3,
      cursor: first.next_cursor,
    })) as typeof first;
    // Five of the owner's receipts on Chicago–Dallas: the stranger's and the Denver one are not listed.
    expect([...first.receipts, ...second.receipts].map((r) => r.receipt_id).slice(-2)).toEqual([
      receipts.feb,
      receipts.jan,
    ]);
    expect(second.next_cursor).toBeNull();
  });

  test("DATA_SOURCES: every series in code-point order with its freshness, marking what the receipt used", async () => {
    const report = (await sameOnBoth({ receipt_id: receipts.feb, report_type: "DATA_SOURCES" })) as {
      series: { series_id: string; used_by_receipt: boolean }[];
    };
    expect(report.series.map((s) => [s.series_id, s.used_by_receipt])).toEqual([
      ["ATA_TONNAGE_SA", false],
      ["DIESEL", true],
      ["PPI_TRUCK", false],
    ]);
  });

  test("another account's receipt is the same 404 on both", async () => {
    for (const engine of ["sqlite", "postgres"] as const) {
      const refused = await audit(engine, owner, { receipt_id: receipts.strangers }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(404);
    }
  });

  test("a receipt appended on PostgreSQL after the copy is proven under the checkpoint its batch signed", async () => {
    const committer = new GroupCommitter(pg);
    committer.join(pgLedger.log);
    committer.join(pgLedger.parts);
    const skill = dieselRateSkill();
    const result = skill.handler(LANE, {
      data: reference.view("2026-03-10", MAR),
      caller: owner,
      instance: instanceOn("postgres"),
    });
    const appended = await committer.commit((tx) =>
      pgLedger.append(tx, {
        issuedAt: MAR + 5000,
        skill: "rate-lookup",
        principal: owner,
        request: LANE,
        response: result.answer,
        factorVersions: result.factorVersions,
        modelVersion: result.modelVersion,
        asOf: "2026-03-10",
        usage: { requestId: "req_after_copy", latencyMs: 1 },
        knownAt: MAR,
      }),
    );
    const trace = (await audit("postgres", owner, { receipt_id: appended.id })).answer as ReceiptTrace;
    expect(trace.log).toMatchObject({ log_index: 8, tree_size: 9 });
    expect(trace.verification).toMatchObject({ hash_valid: true, included: true, reproducible: true, problems: [] });
  });
});

describe("LANE_HISTORY on PostgreSQL", () => {
  test("reads one backward range of the (account_id, lane, issued_at) index", async () => {
    // A busy lane: 8 accounts on 2 lanes, 2,500 receipts each; a page is 101 of them.
    await pg.$client`
      INSERT INTO accounts (id, email, tier, is_admin, created_at)
      SELECT 'acct_plan' || a, 'plan' || a || '@example.test', 'professional', false, 0 FROM generate_series(1, 8) a`;
    await pg.$client`
      INSERT INTO receipts (seq, id, issued_at, skill, account_id, hash, lane)
      SELECT 1000000 + n, 'rcpt_plan' || n, ${JAN} + n * 100, 'rate-lookup', 'acct_plan' || (n % 8 + 1), decode('00', 'hex'), 'lane ' || (n / 8 % 2)
        FROM generate_series(1, 40000) n`;
    await pg.$client`ANALYZE receipts`;
    const r = pg.t.receipts;
    const range = laneRange(pg, {
      accountId: "acct_plan7",
      lane: "lane 1",
      fromMs: JAN,
      toMs: MAR,
      beforeSeq: Number.MAX_SAFE_INTEGER,
    });
    // The statement the report runs (its columns do not change the plan's access path).
    const query = pg
      .select({ seq: r.seq, body: r.body })
      .from(r)
      .where(range.where)
      .orderBy(...range.order)
      .limit(101)
      .toSQL();
    const plan = (await pg.$client.unsafe(`EXPLAIN ${query.sql}`, query.params as never[])) as {
      "QUERY PLAN": string;
    }[];
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    // Newest first straight from the index, stopping after the page: no scan of the table and no
    // full sort, only an incremental one among receipts issued in the same millisecond (seq breaks those ties).
    expect(text).toContain("Index Scan Backward using receipts_account_lane_issued on receipts");
    expect(text).toContain("Presorted Key: issued_at");
    expect(text).not.toMatch(/(^|->)\s*Sort\s+\(cost/m);
    expect(text).not.toContain("Seq Scan");
    expect(await pg.select({ n: sql<number>`count(*)::int` }).from(r).where(range.where)).toEqual([{ n: 2500 }]);
  });
});
