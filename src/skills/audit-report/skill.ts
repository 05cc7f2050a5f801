import { Type, type Static } from "@sinclair/typebox";
import { findOwnReceipt } from "../../receipts/store.ts";
import { enumOf, isoDate } from "../schema-kit.ts";
import { defineSkill } from "../types.ts";
import { dataSources, DataSourcesSchema } from "./data-sources.ts";
import { LANE_HISTORY_DEFAULT_PAGE, LANE_HISTORY_LIMIT, laneHistory, LaneHistorySchema } from "./lane-history.ts";
import { receiptTrace, ReceiptTraceSchema } from "./trace.ts";

const REPORT_TYPES = ["RECEIPT_TRACE", "LANE_HISTORY", "DATA_SOURCES"] as const;

const AuditInput = Type.Object({
  receipt_id: Type.String({
    pattern: "^rcpt_[0-9A-HJKMNP-TV-Z]{26}$",
    description: "The receipt_id of one of your earlier answers.",
  }),
  report_type: Type.Optional(enumOf(REPORT_TYPES, { default: "RECEIPT_TRACE" })),
  origin: Type.Optional(
    Type.String({
      minLength: 1,
      description: "LANE_HISTORY: origin as typed in the requests; defaults to the receipt's.",
    }),
  ),
  destination: Type.Optional(
    Type.String({ minLength: 1, description: "LANE_HISTORY: destination; defaults to the receipt's." }),
  ),
  from: Type.Optional(isoDate("LANE_HISTORY: first UTC issue date (inclusive); defaults to 90 days before `to`.")),
  to: Type.Optional(isoDate("LANE_HISTORY: last UTC issue date (inclusive); defaults to today.")),
  cursor: Type.Optional(
    Type.String({ minLength: 1, description: "LANE_HISTORY: next_cursor of the previous page, for older receipts." }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: LANE_HISTORY_LIMIT,
      description: `LANE_HISTORY: receipts per page, newest first (default ${LANE_HISTORY_DEFAULT_PAGE}).`,
    }),
  ),
});

/** Every report names the receipt it is about at its top level, beside the audit call's own receipt_id. */
const Audited = Type.Object({
  audited_receipt_id: Type.String({ description: "The receipt this report is about (the request's receipt_id)." }),
});
const AuditOutput = Type.Union([
  Type.Composite([Audited, ReceiptTraceSchema]),
  Type.Composite([Audited, LaneHistorySchema]),
  Type.Composite([Audited, DataSourcesSchema]),
]);

/**
 * GET /v1/reports/audit: provenance of the caller's own receipt. Only the caller's receipts are
 * visible; any other id is NOT_FOUND. The audit's own factorVersions are empty: its answer is read
 * from the ledger, and the reference figures it reports are those of the audited receipt, listed
 * inside the answer, not figures the audit computed with. Not replayable: the ledger it reads grows.
 */
export const auditReportSkill = defineSkill({
  name: "audit-report",
  minimumTier: "professional",
  description:
    "Full provenance of one of your receipts: data sources, factor versions, model version, timestamps, authorization, " +
    "its leaf in the transparency log with an inclusion proof and the signed checkpoint it verifies against, and whether re-running the skill reproduces the answer. " +
    "report_type LANE_HISTORY lists your receipts for a lane; DATA_SOURCES lists every series and its freshness.",
  rest: { method: "GET", path: "/v1/reports/audit" },
  input: AuditInput,
  output: AuditOutput,
  replayable: false,
  // Reads the stored receipts through the database on either engine, so it answers with a promise (docs/postgresql.md, "Reading skills").
  async handler(input, { caller, data, instance }) {
    const anchor = await findOwnReceipt(instance.db, input.receipt_id, caller.accountId);
    const report = await (() => {
      switch (input.report_type ?? "RECEIPT_TRACE") {
        case "RECEIPT_TRACE":
          return receiptTrace(instance, anchor);
        case "LANE_HISTORY":
          return laneHistory(instance, anchor, input, data.asOf);
        case "DATA_SOURCES":
          return dataSources(instance.db, data, anchor);
      }
    })();
    const answer: Static<typeof AuditOutput> = { audited_receipt_id: anchor.row.id, ...report };
    // Its data is the audited receipt's pinned view: data_as_of tells how old that answer's figures were.
    const dataView = anchor.body ? { asOf: anchor.body.as_of, factorVersions: anchor.body.factor_versions } : undefined;
    return { answer, factorVersions: [], modelVersion: "audit-report/1", dataView };
  },
});
