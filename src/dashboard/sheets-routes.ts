import { Elysia } from "elysia";
import type { Account } from "../access/accounts.ts";
import { listJobs, rowsAfter } from "../batch/job-store.ts";
import { jobJson } from "../batch/job-view.ts";
import { pricedCsv, pricedXlsx } from "../batch/priced-sheet.ts";
import { sheetFromCsv, sheetFromXlsx, XLSX_MEDIA_TYPE, type Sheet } from "../batch/sheet.ts";
import { templateCsv, templateXlsx } from "../batch/template.ts";
import { ApiError, errors } from "../errors.ts";
import { requestIdOf } from "../http/pipeline/request-pipeline.ts";
import { SheetPage, SheetProgress } from "../../views/sheets/sheet-page.tsx";
import { SheetsPage, UploadForm } from "../../views/sheets/sheets-page.tsx";
import { accountGrant } from "./account-grant.ts";
import type { DashboardContext } from "./context.ts";
import { sessionGuard } from "./guard.ts";
import { htmlResponse, isHtmxRequest, pageResponse } from "./render.ts";

const PREVIEW_ROWS = 25;

const download = (body: BodyInit, type: string, name: string) =>
  new Response(body, {
    headers: {
      "content-type": type,
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });

/**
 * Price a bid sheet in the browser (docs/batch.md): the same jobs as POST /v1/rates/batch, priced
 * under the account's active key grant. The upload counts once toward that key's minute; watching
 * the progress and downloading are page views, not API calls, and count toward nothing.
 */
export function sheetsRoutes(context: DashboardContext) {
  const { batches } = context;

  /** The account's own sheet (another account's is not found), as the API would refuse it. */
  const ownSheet = async (account: Account, jobId: string) => {
    const grant = await accountGrant(context, account);
    return batches.rows(
      grant ?? { accountId: account.id, keyId: "", authObjId: "", tier: account.tier, scopes: null },
      jobId,
    );
  };

  return new Elysia({ name: "dashboard-sheets" })
    .use(sessionGuard(context))
    .get(
      "/dashboard/sheets",
      async ({ signedIn: { account, viewer } }) => {
        const sheets = (await listJobs(context.db, account.id)).map(jobJson);
        const hasKey = (await accountGrant(context, account)) !== null;
        return pageResponse(SheetsPage({ viewer, sheets, hasKey }));
      },
      { signedIn: "account" },
    )
    .get(
      "/dashboard/sheets/template.csv",
      () => download(templateCsv(), "text/csv; charset=utf-8", "bid-sheet-template.csv"),
      {
        signedIn: "account",
      },
    )
    .get(
      "/dashboard/sheets/template.xlsx",
      async () => download(await templateXlsx(), XLSX_MEDIA_TYPE, "bid-sheet-template.xlsx"),
      { signedIn: "account" },
    )
    .post(
      "/dashboard/sheets",
      async ({ request, body, signedIn: { account, viewer, now } }) => {
        const grant = await accountGrant(context, account);
        if (!grant) return htmlResponse(UploadForm({ viewer, hasKey: false }));
        try {
          const { sheet, fileName } = await uploadedSheet(body);
          await batches.admit(grant, now);
          const requestId = requestIdOf(request);
          const submitted = await batches.submit(grant, sheet, {
            requestId,
            now,
            started: performance.now(),
            fileName,
          });
          const location = `/dashboard/sheets/${submitted.jobId}`;
          return isHtmxRequest(request)
            ? new Response(null, { status: 200, headers: { "hx-redirect": location } })
            : new Response(null, { status: 303, headers: { location } });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const detail = (error.extra.details as { problem: string }[] | undefined)?.[0]?.problem;
          const message = detail ? `The sheet was not priced: ${detail}.` : error.message;
          return htmlResponse(UploadForm({ viewer, hasKey: true, error: message }), { status: error.status });
        }
      },
      { signedIn: "account" },
    )
    .get(
      "/dashboard/sheets/:id",
      async ({ params, signedIn: { account, viewer } }) => {
        const { job, rows } = await ownSheet(account, params.id);
        return pageResponse(
          SheetPage({ viewer, sheet: jobJson(job), preview: rows.slice(0, PREVIEW_ROWS), receiptId: job.receiptId }),
        );
      },
      { signedIn: "account" },
    )
    .get(
      "/dashboard/sheets/:id/progress",
      async ({ params, signedIn: { account } }) => {
        const job = await batches.job(
          { accountId: account.id, keyId: "", authObjId: "", tier: account.tier, scopes: null },
          params.id,
        );
        const preview = await rowsAfter(context.db, job.id, 0, PREVIEW_ROWS);
        return htmlResponse(SheetProgress({ sheet: jobJson(job), preview }));
      },
      { signedIn: "account" },
    )
    .get(
      "/dashboard/sheets/:id/priced.csv",
      async ({ params, signedIn: { account } }) => {
        const { job, rows } = await ownSheet(account, params.id);
        return download(
          pricedCsv(job.columns, rows),
          "text/csv; charset=utf-8",
          `${pricedName(job.fileName, job.id)}.csv`,
        );
      },
      { signedIn: "account" },
    )
    .get(
      "/dashboard/sheets/:id/priced.xlsx",
      async ({ params, signedIn: { account } }) => {
        const { job, rows } = await ownSheet(account, params.id);
        return download(
          await pricedXlsx(job.columns, rows),
          XLSX_MEDIA_TYPE,
          `${pricedName(job.fileName, job.id)}.xlsx`,
        );
      },
      { signedIn: "account" },
    );
}

/** "lanes.csv" → "lanes-priced"; a name is kept to safe characters for the download header. */
function pricedName(fileName: string | null, jobId: string): string {
  const stem = (fileName ?? jobId).replace(/\.(csv|xlsx)$/i, "").replace(/[^\w.-]+/g, "_");
  return `${stem}-priced`;
}

/** The uploaded file of the form (read under the sheet cap, src/http/body-cap.ts), as a sheet by its extension or type. */
async function uploadedSheet(body: unknown): Promise<{ sheet: Sheet; fileName: string }> {
  const file = typeof body === "object" && body !== null ? (body as Record<string, unknown>).sheet : undefined;
  if (!(file instanceof File) || file.size === 0)
    throw errors.invalidRequest([{ field: "sheet", problem: "is missing: choose a CSV or XLSX file" }]);
  const fileName = file.name || "sheet.csv";
  const isXlsx = /\.xlsx$/i.test(fileName) || file.type === XLSX_MEDIA_TYPE;
  const sheet = isXlsx
    ? await sheetFromXlsx(new Uint8Array(await file.arrayBuffer()))
    : await sheetFromCsv(await file.text());
  return { sheet, fileName };
}
