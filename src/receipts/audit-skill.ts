import { t, type Static } from "elysia";
import type { Db } from "../db/client.ts";
import type { ReferenceData } from "../reference/view.ts";
import type { AnySkill, SkillDeclaration } from "../skills/types.ts";
import { receiptTrace, ReceiptTraceSchema } from "./audit-trace.ts";
import { dataSources, DataSourcesSchema } from "./data-sources.ts";
import { LANE_HISTORY_DEFAULT_PAGE, LANE_HISTORY_LIMIT, laneHistory, LaneHistorySchema } from "./lane-history.ts";
import { findOwnReceipt } from "./store.ts";

const DATE = "^\\d{4}-\\d{2}-\\d{2}$";

const AuditInput = t.Object({
  receipt_id: t.String({ pattern: "^rcpt_[0-9A-HJKMNP-TV-Z]{26}$", description: "The receipt_id of one of your earlier answers." }),
  report_type: t.Optional(
    t.Union([t.Literal("RECEIPT_TRACE"), t.Literal("LANE_HISTORY"), t.Literal("DATA_SOURCES")], { default: "RECEIPT_TRACE" }),
  ),
  origin: t.Optional(t.String({ minLength: 1, description: "LANE_HISTORY: origin as typed in the requests; defaults to the receipt's." })),
  destination: t.Optional(t.String({ minLength: 1, description: "LANE_HISTORY: destination; defaults to the receipt's." })),
  from: t.Optional(t.String({ pattern: DATE, description: "LANE_HISTORY: first UTC issue date (inclusive); defaults to 90 days before `to`." })),
  to: t.Optional(t.String({ pattern: DATE, description: "LANE_HISTORY: last UTC issue date (inclusive); defaults to today." })),
  cursor: t.Optional(t.String({ minLength: 1, description: "LANE_HISTORY: next_cursor of the previous page, for older receipts." })),
  limit: t.Optional(
    t.Integer({ minimum: 1, maximum: LANE_HISTORY_LIMIT, description: `LANE_HISTORY: receipts per page, newest first (default ${LANE_HISTORY_DEFAULT_PAGE}).` }),
  ),
});

/** Every report names the receipt it is about at its top level, beside the audit call's own receipt_id. */
const Audited = t.Object({ audited_receipt_id: t.String({ description: "The receipt this report is about (the request's receipt_id)." }) });
const AuditOutput = t.Union([t.Composite([Audited, ReceiptTraceSchema]), t.Composite([Audited, LaneHistorySchema]), t.Composite([Audited, DataSourcesSchema])]);

export interface AuditReportDeps {
  db: Db;
  reference: ReferenceData;
  /** Every skill this instance serves, read at call time, so the audit can re-run the one a receipt names. */
  skills: () => readonly AnySkill[];
}

/**
 * GET /v1/reports/audit: provenance of the caller's own receipt. Only the caller's receipts are
 * visible; any other id is NOT_FOUND. The audit's own factorVersions are empty: its answer is read
 * from the ledger, and the reference figures it reports are those of the audited receipt, listed
 * inside the answer, not figures the audit computed with.
 */
export function createAuditReportSkill(deps: AuditReportDeps): SkillDeclaration<typeof AuditInput, typeof AuditOutput> {
  return {
    name: "audit-report",
    scope: "audit-report",
    minimumTier: "professional",
    description:
      "Full provenance of one of your receipts: data sources, factor versions, model version, timestamps, authorization, " +
      "its link in the signed hash chain, and whether re-running the skill reproduces the answer. " +
      "report_type LANE_HISTORY lists your receipts for a lane; DATA_SOURCES lists every series and its freshness.",
    rest: { method: "GET", path: "/v1/reports/audit" },
    input: AuditInput,
    output: AuditOutput,
    handler(input, context) {
      const anchor = findOwnReceipt(deps.db, input.receipt_id, context.caller.accountId);
      const report = (() => {
        switch (input.report_type ?? "RECEIPT_TRACE") {
          case "RECEIPT_TRACE":
            return receiptTrace(deps, anchor);
          case "LANE_HISTORY":
            return laneHistory(deps, anchor, input, context.data.asOf);
          case "DATA_SOURCES":
            return dataSources(deps.db, context.data, anchor);
        }
      })();
      const answer: Static<typeof AuditOutput> = { audited_receipt_id: anchor.row.id, ...report };
      return { answer, factorVersions: [], modelVersion: "audit-report/1" };
    },
  };
}
