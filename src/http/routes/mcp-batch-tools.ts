import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { decide } from "../../access/authorize.ts";
import type { Principal } from "../../access/principal.ts";
import { jobJson } from "../../batch/job-view.ts";
import type { BatchService } from "../../batch/service.ts";
import { sheetFromJson } from "../../batch/sheet.ts";
import { ApiError, errors } from "../../errors.ts";
import type { SkillReply } from "../../pipeline/run-skill.ts";
import { callName, type AnySkill } from "../../skills/types.ts";

const SUBMIT = "rate-lookup-batch";
const RESULTS = "rate-lookup-batch-results";
/** Rows per results call: an MCP answer stays a readable size; `after_row` pages on. */
const ROWS_PER_CALL = 500;

type Json = Record<string, unknown>;
const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** The bid-sheet tools, for a key that may call rate-lookup (they are part of it). */
export function batchToolsFor(principal: Principal, skills: readonly AnySkill[]): Tool[] {
  const rateLookup = skills.find((skill) => callName(skill) === "rate-lookup");
  if (!rateLookup || !decide(principal.tier, principal.scopes, rateLookup).allowed) return [];
  const meta = { "waybill/minimum_tier": rateLookup.minimumTier, "waybill/scope": rateLookup.name };
  return [
    {
      name: SUBMIT,
      title: "Rate Lookup: Price a Bid Sheet",
      description:
        "Price many lanes at once in the background (POST /v1/rates/batch): each lane is a rate-lookup input. Answers a job_id; " +
        `poll ${RESULTS}. Each priced lane is one metered call with its own receipt; a sheet larger than the month's remainder is refused.`,
      inputSchema: {
        type: "object",
        properties: { lanes: { type: "array", items: plain(rateLookup.input), description: "The lanes to price." } },
        required: ["lanes"],
      },
      annotations: { readOnlyHint: false, openWorldHint: false },
      _meta: { ...meta, "waybill/rest": "POST /v1/rates/batch" },
    },
    {
      name: RESULTS,
      title: "Rate Lookup: Bid Sheet Results",
      description:
        `A bid sheet's status (queued, running, done, failed) and up to ${ROWS_PER_CALL} of its rows after after_row: ` +
        "priced rows with rate_per_mile, total_cost, miles, confidence and receipt_id; refused rows with error and message.",
      inputSchema: {
        type: "object",
        properties: {
          job_id: { type: "string", description: `The job_id ${SUBMIT} answered.` },
          after_row: { type: "integer", minimum: 0, description: "Rows after this one (default 0: from the first)." },
        },
        required: ["job_id"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { ...meta, "waybill/rest": "GET /v1/rates/batch/{job_id}/results" },
    },
  ];
}

export const isBatchTool = (name: string) => name === SUBMIT || name === RESULTS;

/** A bid-sheet tool call as a reply the MCP transport turns into a tool result. */
export async function callBatchTool(
  batches: BatchService,
  principal: Principal,
  name: string,
  args: Json,
  context: { requestId: string; now: number; started: number },
): Promise<Pick<SkillReply, "status" | "body" | "headers">> {
  let headers: Record<string, string> = {};
  try {
    headers = await batches.admit(principal, context.now);
    if (name === SUBMIT) {
      const submitted = await batches.submit(principal, sheetFromJson(args), context);
      return {
        status: 202,
        body: {
          job_id: submitted.jobId,
          status: "queued",
          total: submitted.total,
          receipt_id: submitted.receiptId,
          auth_obj_id: principal.authObjId,
        },
        headers,
      };
    }
    const jobId = typeof args.job_id === "string" ? args.job_id : "";
    const after = Number.isInteger(args.after_row) ? Number(args.after_row) : 0;
    const { job, rows } = await batches.rows(principal, jobId);
    const page = rows.filter((row) => row.row > after).slice(0, ROWS_PER_CALL);
    return {
      status: 200,
      body: {
        ...jobJson(job),
        rows: page.map((row) => ({ row: row.row, input: row.cells, ...(row.outcome ?? { status: "pending" }) })),
        receipt_id: job.receiptId,
        auth_obj_id: principal.authObjId,
      },
      headers,
    };
  } catch (error) {
    const apiError = error instanceof ApiError ? error : errors.internal();
    return { status: apiError.status, body: apiError.body(context.requestId, principal.authObjId), headers };
  }
}
