import { beforeEach, describe, expect, test } from "bun:test";
import { t } from "elysia";
import type { Principal } from "../../src/access/principal.ts";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { ApiError } from "../../src/errors.ts";
import { auditReportSkill } from "../../src/skills/audit-report/skill.ts";
import { canonicalJson, sha256Hex } from "../../src/receipts/canonical.ts";
import type { ReceiptTrace } from "../../src/skills/audit-report/trace.ts";
import type { DataSources } from "../../src/skills/audit-report/data-sources.ts";
import type { LaneHistory } from "../../src/skills/audit-report/lane-history.ts";
import type { ReferenceData } from "../../src/reference/storage/view.ts";
import type { AnyReadingSkill } from "../../src/skills/types.ts";
import { validateInput } from "../../src/pipeline/validate.ts";
import { utcDateOf } from "../../src/dates.ts";
import { openLedger, seedPrincipal } from "./fixtures.ts";
import { storedReceiptAt } from "../../src/receipts/store.ts";
import { answerAndRecord, dieselRateSkill, seedReference } from "./reference-fixture.ts";
import { retractImport } from "../../src/reference/storage/retract.ts";
import { defined } from "../support/defined.ts";

const JAN = Date.parse("2026-01-10T12:00:00Z");
const FEB = Date.parse("2026-02-10T12:00:00Z");
const MAR = Date.parse("2026-03-10T12:00:00Z");
const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

let db: Db;
let ledger: Awaited<ReturnType<typeof openLedger>>;
let reference: ReferenceData;
let skills: AnyReadingSkill[];
const skillUnderTest = () => defined(skills[0], "the skill under test");
let owner: Principal;
let stranger: Principal;

beforeEach(async () => {
  db = openMemoryDatabase();
  ledger = await openLedger(db, { clock: new ManualClock(JAN) });
  reference = seedReference(db, [
    { seriesId: "DIESEL", observedOn: "2026-01-05", value: 3.5, importId: "imp_jan", fetchedAt: JAN - 3600_000 },
    { seriesId: "DIESEL", observedOn: "2026-02-02", value: 3.8, importId: "imp_feb", fetchedAt: FEB - 3600_000 },
    // A revision of January's figure, published after the January answer was given.
    { seriesId: "DIESEL", observedOn: "2026-01-05", value: 3.55, importId: "imp_rev", fetchedAt: JAN + 86_400_000 },
    { seriesId: "PPI_TRUCK", observedOn: "2025-12-01", value: 181.2, importId: "imp_jan", fetchedAt: JAN - 3600_000 },
  ]);
  skills = [dieselRateSkill()];
  owner = seedPrincipal(db, { tier: "professional", scopes: ["rate-lookup", "audit-report"] });
  stranger = seedPrincipal(db, { tier: "enterprise" });
});

async function audit(caller: Principal, input: Record<string, unknown>, at = MAR) {
  const validated = validateInput(auditReportSkill.input, input, "query") as never;
  const instance = { db, reference, skills: [...skills, auditReportSkill], log: ledger.ledger.log };
  return auditReportSkill.handler(validated, { data: reference.view(utcDateOf(at), at), caller, instance });
}
const digestOf = (answer: unknown) => sha256Hex(canonicalJson(answer));
const trace = async (caller: Principal, receiptId: string) =>
  (await audit(caller, { receipt_id: receiptId })).answer as ReceiptTrace;

describe("audit-report: RECEIPT_TRACE", () => {
  test("reports provenance, the receipt's leaf with its inclusion proof and signed checkpoint, and a fully valid verification", async () => {
    await answerAndRecord(db, ledger, reference, skillUnderTest(), stranger, LANE, JAN - 1000);
    const { answer, receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN);
    const report = await trace(owner, receipt.id);
    const row = defined(await storedReceiptAt(db, 2), "receipt seq 2");
    const checkpoint = defined(
      db.$client.query<{ note: string }, []>("SELECT note FROM log_checkpoints WHERE tree_size = 2").get(),
      "the checkpoint at tree size 2",
    );

    expect(report).toMatchObject({
      report_type: "RECEIPT_TRACE",
      receipt_id: receipt.id,
      skill: "rate-lookup",
      model_version: "diesel-rate/0.5",
      timestamps: { issued_at: "2026-01-10T12:00:00.000Z", as_of: "2026-01-10", known_at: "2026-01-10T12:00:00.000Z" },
      authorization: {
        auth_obj_id: owner.authObjId,
        account_id: owner.accountId,
        tier: "professional",
        scopes: ["rate-lookup", "audit-report"],
      },
      request: LANE,
      response_sha256: digestOf(answer),
      reproduced_response: answer,
      factor_versions: [{ series_id: "DIESEL", value: 3.5, observation_date: "2026-01-05", import_id: "imp_jan" }],
      data_sources: [
        {
          series_id: "DIESEL",
          value: 3.5,
          observation_date: "2026-01-05",
          import_id: "imp_jan",
          source: "eia",
          file_name: "imp_jan.csv",
          fetched_at: new Date(JAN - 3600_000).toISOString(),
          matches_stored_observation: true,
          retraction: null,
        },
      ],
      log: {
        log_index: 1,
        leaf_entry: row.hash,
        tree_size: 2,
        checkpoint: checkpoint.note,
        receipt: JSON.parse(row.body),
        legacy: null,
      },
      verification: {
        hash_valid: true,
        included: true,
        signature_valid: null,
        link_valid: null,
        record_matches_body: true,
        reproducible: true,
        problems: [],
      },
    });
    expect(report.verification.reproduction).toMatchObject({ answer_matches: true, factor_versions_match: true });
  });

  test("a later revision of a figure does not change the replay: the receipt's known_at pins the data", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN);
    // Today's view would pick the revised 3.55 (and February's 3.8); the audit replays January's.
    expect(reference.view("2026-01-10", MAR).latest("DIESEL")?.value).toBe(3.55);
    expect((await trace(owner, receipt.id)).verification.reproducible).toBe(true);
  });

  test("a retraction after the answer is shown with its reason; the receipt still reproduces", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN);
    await retractImport(db, "imp_jan", "EIA corrected the week", FEB);
    const report = await trace(owner, receipt.id);
    expect(report.data_sources[0]).toMatchObject({
      import_id: "imp_jan",
      retraction: { retracted_at: new Date(FEB).toISOString(), reason: "EIA corrected the week" },
    });
    expect(report.verification.reproducible).toBe(true);
  });

  test("a changed model is reported as a changed model naming the version that signed, not as a mismatch", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, FEB);
    skills = [dieselRateSkill(0.6)];
    const { verification, reproduced_response } = await trace(owner, receipt.id);
    expect(reproduced_response).toEqual({
      rate_per_mile: 3.28,
      diesel: 3.8,
      origin: LANE.origin,
      destination: LANE.destination,
    });
    expect(verification.reproducible).toBeNull();
    expect(verification.reproduction).toMatchObject({ answer_matches: null, factor_versions_match: true });
    expect(verification.reproduction.detail).toMatch(
      /model changed since this receipt was signed: it was signed under diesel-rate\/0\.5, .* now runs diesel-rate\/0\.6/,
    );
    expect(verification.problems).toEqual([]);
    expect(verification.hash_valid).toBe(true);
  });

  test("an edited response digest, with or without a recomputed leaf entry, shows up in the verification block", async () => {
    const first = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN);
    const second = (await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, FEB)).receipt;
    const doctored = digestOf({ ...(first.answer as object), rate_per_mile: 1.5 });
    db.$client.query("UPDATE receipts SET response_sha256 = unhex(?) WHERE seq = 1").run(doctored);

    const edited = await trace(owner, first.receipt.id);
    expect(edited.response_sha256).toBe(doctored);
    expect(edited.verification).toMatchObject({ hash_valid: false, included: true, reproducible: false });
    expect(edited.verification.reproduction).toMatchObject({ answer_matches: false, factor_versions_match: true });
    // Recomputing the stored entry to match the edit takes the leaf out of the signed tree.
    const { body } = defined(await storedReceiptAt(db, 1), "receipt seq 1");
    db.$client.query("UPDATE receipts SET hash = unhex(?) WHERE seq = 1").run(sha256Hex(body));
    expect((await trace(owner, first.receipt.id)).verification).toMatchObject({ hash_valid: true, included: false });
    expect((await trace(owner, second.id)).verification).toMatchObject({
      hash_valid: true,
      included: true,
      reproducible: true,
    });
  });

  test("another account's receipt is refused exactly like one that does not exist", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN);
    const refusal = async (receiptId: string) => {
      try {
        await audit(stranger, { receipt_id: receiptId });
      } catch (error) {
        return error instanceof ApiError
          ? { status: error.status, body: error.body("req_1", stranger.authObjId) }
          : error;
      }
      throw new Error("the audit answered");
    };
    const foreign = await refusal(receipt.id);
    const missing = await refusal("rcpt_01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(foreign).toEqual({ status: 404, body: expect.objectContaining({ error: "NOT_FOUND" }) });
    expect(missing).toEqual(foreign);
  });

  test("an audit's own receipt is listed but not re-run", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN);
    const auditReceipt = (
      await answerAndRecord(
        db,
        ledger,
        reference,
        auditReportSkill,
        owner,
        { receipt_id: receipt.id, report_type: "RECEIPT_TRACE" },
        FEB,
      )
    ).receipt;
    const report = await trace(owner, auditReceipt.id);
    expect(report.skill).toBe("audit-report");
    expect(report.verification).toMatchObject({ hash_valid: true, included: true, reproducible: null });
  });

  test("the input schema defaults the report type and refuses unknown ones and malformed ids", async () => {
    const skill = auditReportSkill;
    expect(validateInput(skill.input, { receipt_id: "rcpt_01ARZ3NDEKTSV4RRFFQ69G5FAV" }, "query")).toEqual({
      receipt_id: "rcpt_01ARZ3NDEKTSV4RRFFQ69G5FAV",
      report_type: "RECEIPT_TRACE",
    });
    expect(() =>
      validateInput(skill.input, { receipt_id: "rcpt_01ARZ3NDEKTSV4RRFFQ69G5FAV", report_type: "EVERYTHING" }, "query"),
    ).toThrow(ApiError);
    expect(() => validateInput(skill.input, { receipt_id: "rcpt_1" }, "query")).toThrow(ApiError);
    expect(skill).toMatchObject({
      name: "audit-report",
      replayable: false,
      minimumTier: "professional",
      rest: { method: "GET", path: "/v1/reports/audit" },
    });
  });
});

describe("audit-report: LANE_HISTORY and DATA_SOURCES", () => {
  test("lists the caller's receipts for the receipt's lane within the date range, newest first", async () => {
    const jan = (await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN)).receipt;
    const feb = (
      await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, { ...LANE, origin: "  chicago, il " }, FEB)
    ).receipt;
    await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, { ...LANE, destination: "Denver, CO" }, FEB);
    await answerAndRecord(db, ledger, reference, skillUnderTest(), stranger, LANE, FEB);

    const all = (await audit(owner, { receipt_id: jan.id, report_type: "LANE_HISTORY", from: "2026-01-01" }))
      .answer as LaneHistory;
    expect(all).toMatchObject({
      lane: { origin: "Chicago, IL", destination: "Dallas, TX" },
      from: "2026-01-01",
      to: "2026-03-10",
      count: 2,
      next_cursor: null,
    });
    expect(all.receipts.map((r) => r.receipt_id)).toEqual([feb.id, jan.id]);
    expect(all.receipts[0]).toMatchObject({
      seq: 2,
      skill: "rate-lookup",
      rate_per_mile: 2.9,
      equipment: "DRY_VAN",
      as_of: "2026-02-10",
      answer_reproduced: true,
    });

    const februaryOnly = (
      await audit(owner, { receipt_id: jan.id, report_type: "LANE_HISTORY", from: "2026-02-10", to: "2026-02-10" })
    ).answer as LaneHistory;
    expect(februaryOnly.receipts.map((r) => r.receipt_id)).toEqual([feb.id]);

    const denver = (
      await audit(owner, {
        receipt_id: jan.id,
        report_type: "LANE_HISTORY",
        destination: "Denver, CO",
        from: "2026-01-01",
      })
    ).answer as LaneHistory;
    expect(denver.count).toBe(1);
    expect(
      audit(owner, { receipt_id: jan.id, report_type: "LANE_HISTORY", from: "2026-03-01", to: "2026-02-01" }),
    ).rejects.toThrow(ApiError);
  });

  test("pages from the newest receipt to the oldest with next_cursor", async () => {
    const ids: string[] = [];
    for (const at of [JAN, FEB, MAR, MAR + 1000, MAR + 2000])
      ids.push((await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, at)).receipt.id);
    const page = async (cursor?: string) =>
      (
        await audit(owner, {
          receipt_id: defined(ids[0], "the oldest receipt's id"),
          report_type: "LANE_HISTORY",
          from: "2026-01-01",
          limit: 2,
          ...(cursor ? { cursor } : {}),
        })
      ).answer as LaneHistory;
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const current = await page(cursor);
      expect(current.count).toBeLessThanOrEqual(2);
      seen.push(...current.receipts.map((r) => r.receipt_id));
      cursor = current.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(page("not-a-cursor")).rejects.toThrow(ApiError);
  });

  test("every report names the audited receipt at its top level", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, FEB);
    for (const report_type of ["RECEIPT_TRACE", "LANE_HISTORY", "DATA_SOURCES"]) {
      expect((await audit(owner, { receipt_id: receipt.id, report_type })).answer).toMatchObject({
        audited_receipt_id: receipt.id,
      });
    }
  });

  test("shows a receipt's figures only while re-running it reproduces the signed answer", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, FEB);
    const history = async () =>
      ((await audit(owner, { receipt_id: receipt.id, report_type: "LANE_HISTORY" })).answer as LaneHistory).receipts[0];
    expect(await history()).toMatchObject({ rate_per_mile: 2.9, answer_reproduced: true });

    skills = [dieselRateSkill(0.6)];
    expect(await history()).toMatchObject({
      receipt_id: receipt.id,
      rate_per_mile: null,
      total_cost: null,
      miles: null,
      answer_reproduced: false,
    });
  });

  test("does not re-run a receipt whose skill answers without lane figures", async () => {
    let runs = 0;
    const rateSkill = dieselRateSkill();
    const figureless = {
      ...rateSkill,
      output: t.Object({ diesel: t.Number() }),
      handler: (...args: Parameters<AnyReadingSkill["handler"]>) => {
        runs++;
        return rateSkill.handler(...args);
      },
    };
    skills = [figureless];
    const { receipt } = await answerAndRecord(db, ledger, reference, figureless, owner, LANE, FEB);
    runs = 0;
    const [row] = ((await audit(owner, { receipt_id: receipt.id, report_type: "LANE_HISTORY" })).answer as LaneHistory)
      .receipts;
    expect(row).toMatchObject({ receipt_id: receipt.id, rate_per_mile: null, answer_reproduced: null });
    expect(runs).toBe(0);
  });

  test("lists every series with its freshness today and marks those the receipt used", async () => {
    const { receipt } = await answerAndRecord(db, ledger, reference, skillUnderTest(), owner, LANE, JAN);
    const report = (await audit(owner, { receipt_id: receipt.id, report_type: "DATA_SOURCES" }))
      .answer as DataSources & { audited_receipt_id: string };
    expect(report).toEqual({
      audited_receipt_id: receipt.id,
      report_type: "DATA_SOURCES",
      as_of: "2026-03-10",
      known_at: new Date(MAR).toISOString(),
      series: [
        {
          series_id: "DIESEL",
          source: "eia",
          latest_observation_date: "2026-02-02",
          latest_value: 3.8,
          import_id: "imp_feb",
          fetched_at: new Date(FEB - 3600_000).toISOString(),
          age_days: 36,
          used_by_receipt: true,
        },
        {
          series_id: "PPI_TRUCK",
          source: "eia",
          latest_observation_date: "2025-12-01",
          latest_value: 181.2,
          import_id: "imp_jan",
          fetched_at: new Date(JAN - 3600_000).toISOString(),
          age_days: 99,
          used_by_receipt: false,
        },
      ],
    });
  });
});
