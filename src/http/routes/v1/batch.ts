import { Elysia } from "elysia";
import { authenticateCaller } from "../../../access/authenticate.ts";
import type { Principal } from "../../../access/principal.ts";
import { jobJson, statusUrl } from "../../../batch/job-view.ts";
import { pricedCsv, pricedJsonLines, pricedXlsx } from "../../../batch/priced-sheet.ts";
import { sheetFromCsv, sheetFromJson, sheetFromXlsx, XLSX_MEDIA_TYPE, type Sheet } from "../../../batch/sheet.ts";
import type { BatchService } from "../../../batch/service.ts";
import { BATCH_SUBMISSION_CALL } from "../../../metering/batch-submission.ts";
import { ApiError, errorResponse, errors } from "../../../errors.ts";
import { log } from "../../../ops/log.ts";
import type { PipelineDeps } from "../../../pipeline/run-skill.ts";
import { MAX_SHEET_BODY_BYTES, readCappedBody } from "../../pipeline/body-cap.ts";
import { NEVER_STORE } from "../../responses/cache.ts";
import { attributeRequest, requestIdOf } from "../../pipeline/request-pipeline.ts";
import { RESULTS_DOC, STATUS_DOC, SUBMIT_DOC } from "./batch-docs.ts";

export interface BatchRouteDeps extends PipelineDeps {
  batches: BatchService;
}

/** A caller let through rate-lookup's scope and tier and counted once in the minute window. */
interface Admitted {
  principal: Principal;
  headers: Record<string, string>;
  now: number;
}

/**
 * Bid sheets for API clients (docs/batch.md): POST /v1/rates/batch, GET /v1/rates/batch/:job_id
 * and GET /v1/rates/batch/:job_id/results. Part of rate-lookup: the same scope and tier. Every
 * call here counts once toward the minute; each priced lane counts toward the month when the
 * runner prices it, with its own receipt.
 */
export function batchRoutes(deps: BatchRouteDeps) {
  function refused(principal: Principal, error: unknown, requestId: string, at: number, started: number) {
    deps.usage.recordRefused({
      at,
      requestId,
      accountId: principal.accountId,
      keyId: principal.keyId,
      skill: BATCH_SUBMISSION_CALL,
      status: error instanceof ApiError ? error.status : 500,
      latencyMs: performance.now() - started,
      receiptId: null,
    });
  }

  /**
   * authenticate → scope → tier → minute → `work`. Any refusal is the error table's; one after
   * authentication carries the key grant and the rate-limit headers, and is logged like a skill's.
   */
  async function handle(
    request: Request,
    work: (admitted: Admitted, requestId: string, started: number) => Promise<Response>,
  ): Promise<Response> {
    const requestId = requestIdOf(request);
    const started = performance.now();
    let principal: Principal;
    try {
      principal = await authenticateCaller(deps, request.headers.get("authorization"));
    } catch (error) {
      return errorResponse(error, requestId);
    }
    attributeRequest(request, principal.accountId, true);
    const now = deps.clock.now();
    let headers: Record<string, string> = {};
    try {
      headers = await deps.batches.admit(principal, now);
      const response = await work({ principal, headers, now }, requestId, started);
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      response.headers.set("Cache-Control", NEVER_STORE);
      response.headers.set("X-Request-Id", requestId);
      return response;
    } catch (error) {
      if (!(error instanceof ApiError)) log.failure("batch_call_failed", error, { request_id: requestId });
      refused(principal, error, requestId, now, started);
      if (error instanceof ApiError && error.status === 429) headers = {}; // the refusal's own window headers
      return errorResponse(error, requestId, principal.authObjId, headers);
    }
  }

  return new Elysia({ name: "waybill.batch" })
    .post(
      "/v1/rates/batch",
      ({ request }) =>
        handle(request, async ({ principal, now }, requestId, started) => {
          const sheet = await readSheet(request);
          const submitted = await deps.batches.submit(principal, sheet, { requestId, now, started });
          return Response.json(
            {
              job_id: submitted.jobId,
              status: "queued",
              total: submitted.total,
              status_url: statusUrl(submitted.jobId),
              receipt_id: submitted.receiptId,
              auth_obj_id: principal.authObjId,
            },
            { status: 202, headers: { Location: statusUrl(submitted.jobId) } },
          );
        }),
      { parse: "none", detail: SUBMIT_DOC },
    )
    .get(
      "/v1/rates/batch/:job_id",
      ({ request, params }) =>
        handle(request, async ({ principal }) => {
          const job = await deps.batches.job(principal, params.job_id);
          return Response.json({ ...jobJson(job), receipt_id: job.receiptId, auth_obj_id: principal.authObjId });
        }),
      { detail: STATUS_DOC },
    )
    .get(
      "/v1/rates/batch/:job_id/results",
      ({ request, params }) =>
        handle(request, async ({ principal }) => {
          const { job, rows } = await deps.batches.rows(principal, params.job_id);
          const carried = { "X-Receipt-Id": job.receiptId, "X-Auth-Obj-Id": principal.authObjId };
          const accept = request.headers.get("accept") ?? "";
          if (/\btext\/csv\b/i.test(accept))
            return new Response(pricedCsv(job.columns, rows), {
              headers: { ...carried, "Content-Type": "text/csv; charset=utf-8" },
            });
          if (accept.includes(XLSX_MEDIA_TYPE))
            return new Response(await pricedXlsx(job.columns, rows), {
              headers: { ...carried, "Content-Type": XLSX_MEDIA_TYPE },
            });
          return new Response(pricedJsonLines(rows), {
            headers: { ...carried, "Content-Type": "application/x-ndjson; charset=utf-8" },
          });
        }),
      { detail: RESULTS_DOC },
    );
}

/** The body as a sheet, by its media type: JSON lanes, CSV or an XLSX workbook. */
async function readSheet(request: Request): Promise<Sheet> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const isJson = /^application\/(.+\+)?json\b/.test(type);
  const isCsv = /^text\/csv\b/.test(type);
  const isXlsx = type.startsWith(XLSX_MEDIA_TYPE);
  if (!isJson && !isCsv && !isXlsx)
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Send the sheet as 'application/json' ({"lanes": [...]}), 'text/csv' or '${XLSX_MEDIA_TYPE}'.`,
    );
  const bytes = await readCappedBody(request, MAX_SHEET_BODY_BYTES);
  if (isXlsx) return sheetFromXlsx(bytes);
  const text = new TextDecoder().decode(bytes);
  if (isCsv) return sheetFromCsv(text);
  try {
    return sheetFromJson(JSON.parse(text));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
  }
}
