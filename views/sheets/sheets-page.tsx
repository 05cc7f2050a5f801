import type { jobJson } from "../../src/batch/job-view.ts";
import { MAX_SHEET_LANES } from "../../src/batch/sheet.ts";
import { DataTable } from "../data-table.tsx";
import { Flash } from "../flash.tsx";
import { AppLayout, type Viewer } from "../layout.tsx";
import { formatDateTime } from "../format.ts";

export type SheetView = ReturnType<typeof jobJson>;

export const STATUS_LABELS: Record<SheetView["status"], string> = {
  storing: "Uploading", // never shown: a job is listed once its rows are all stored
  queued: "Waiting to start",
  running: "Pricing",
  done: "Priced",
  failed: "Stopped",
};

/** Price a bid sheet: upload a CSV or XLSX, and the sheets priced before. */
export function SheetsPage(props: { viewer: Viewer; sheets: SheetView[]; hasKey: boolean; error?: string }) {
  return (
    <AppLayout title="Bid sheets" viewer={props.viewer} section="sheets">
      <div class="page-head">
        <h1>Price a bid sheet</h1>
        <p class="muted" safe>
          {`Upload a CSV or Excel (XLSX) sheet of up to ${MAX_SHEET_LANES.toLocaleString("en-US")} lanes. The first row ` +
            "names the columns: origin, destination and equipment, and optionally mode, miles, include fuel surcharge " +
            "and as of. Any other column is kept as it is. Each priced lane is one rate lookup with its own receipt."}
        </p>
      </div>
      <UploadForm viewer={props.viewer} hasKey={props.hasKey} error={props.error} />
      <section class="card">
        <h2>Past sheets</h2>
        <DataTable
          label="Past sheets"
          columns={[
            { label: "Sheet" },
            { label: "Status" },
            { label: "Lanes", class: "num" },
            { label: "Uploaded" },
            { label: "Download" },
          ]}
          empty="No sheets priced yet."
          rows={props.sheets.map((sheet) => (
            <tr>
              <td>
                <a href={`/dashboard/sheets/${sheet.job_id}`} safe>
                  {sheet.file_name ?? sheet.job_id}
                </a>
              </td>
              <td safe>{STATUS_LABELS[sheet.status]}</td>
              <td class="num" safe>{`${sheet.done} / ${sheet.total}`}</td>
              <td>{sheet.created_at ? formatDateTime(Date.parse(sheet.created_at)) : ""}</td>
              <td>
                <DownloadLinks sheet={sheet} />
              </td>
            </tr>
          ))}
        />
      </section>
    </AppLayout>
  );
}

/** The upload form; its fragment comes back with the reason when a sheet is refused. */
export function UploadForm(props: { viewer: Viewer; hasKey: boolean; error?: string }) {
  return (
    <section class="card" id="upload">
      <h2>Upload</h2>
      <Flash error={props.error} />
      {props.hasKey ? (
        <form
          method="post"
          action="/dashboard/sheets"
          enctype="multipart/form-data"
          hx-post="/dashboard/sheets"
          hx-encoding="multipart/form-data"
          hx-target="#upload"
        >
          <label for="sheet-file">Sheet (CSV or XLSX)</label>
          <input id="sheet-file" type="file" name="sheet" accept=".csv,.xlsx,text/csv" required />
          <p class="muted small">
            Download the template:{" "}
            <a href="/dashboard/sheets/template.xlsx" download="bid-sheet-template.xlsx">
              Excel (XLSX)
            </a>{" "}
            ·{" "}
            <a href="/dashboard/sheets/template.csv" download="bid-sheet-template.csv">
              CSV
            </a>
          </p>
          <button type="submit">Price the sheet</button>
        </form>
      ) : (
        <p>
          Sheets are priced under your API key, so they are metered and receipted like any call.{" "}
          <a href="/dashboard/keys">Create a key</a> first.
        </p>
      )}
    </section>
  );
}

export function DownloadLinks(props: { sheet: SheetView }) {
  const base = `/dashboard/sheets/${props.sheet.job_id}/priced`;
  return (
    <span class="links">
      {props.sheet.format === "xlsx" ? <a href={`${base}.xlsx`}>XLSX</a> : null} <a href={`${base}.csv`}>CSV</a>
    </span>
  );
}
