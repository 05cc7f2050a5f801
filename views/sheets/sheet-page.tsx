import { isPriced } from "../../src/batch/outcome.ts";
import type { SheetRow } from "../../src/batch/priced-sheet.ts";
import { fieldName } from "../../src/batch/sheet.ts";
import { DataTable } from "../data-table.tsx";
import { AppLayout, type Viewer } from "../layout.tsx";
import { DownloadLinks, STATUS_LABELS, type SheetView } from "./sheets-page.tsx";

const money = (value: number) =>
  `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** One sheet: its progress (polled while it is priced), downloads once it is done, and its first rows. */
export function SheetPage(props: { viewer: Viewer; sheet: SheetView; preview: SheetRow[]; receiptId: string }) {
  const { sheet } = props;
  return (
    <AppLayout title={sheet.file_name ?? "Bid sheet"} viewer={props.viewer} section="sheets">
      <div class="page-head">
        <h1 safe>{sheet.file_name ?? sheet.job_id}</h1>
        <p class="muted">
          <a href="/dashboard/sheets">All sheets</a> · submission receipt{" "}
          <a href={`/dashboard/receipts/${props.receiptId}`} safe>
            {props.receiptId}
          </a>
        </p>
      </div>
      <SheetProgress sheet={sheet} preview={props.preview} />
    </AppLayout>
  );
}

/** The progress card: it asks again every second while the sheet is being priced, and stops once it is settled. */
export function SheetProgress(props: { sheet: SheetView; preview: SheetRow[] }) {
  const { sheet } = props;
  const settled = sheet.status === "done" || sheet.status === "failed";
  return (
    <div
      id="progress"
      hx-get={settled ? undefined : `/dashboard/sheets/${sheet.job_id}/progress`}
      hx-trigger={settled ? undefined : "load delay:1s"}
    >
      <section class="card" aria-live="polite">
        <h2 id="sheet-status" safe>
          {STATUS_LABELS[sheet.status]}
        </h2>
        <label for="sheet-progress" safe>{`${sheet.done} of ${sheet.total} lanes settled`}</label>
        <progress id="sheet-progress" max={String(sheet.total)} value={String(sheet.done)} safe>
          {`${sheet.done} / ${sheet.total}`}
        </progress>
        {sheet.failure ? (
          <p class="error" safe>
            {sheet.failure}
          </p>
        ) : null}
        {settled ? (
          <p>
            Download the priced sheet: <DownloadLinks sheet={sheet} />
          </p>
        ) : null}
      </section>
      <PreviewRows preview={props.preview} />
    </div>
  );
}

const cellOf = (cells: Record<string, unknown>, field: string) =>
  String(Object.entries(cells).find(([column]) => fieldName(column) === field)?.[1] ?? "");

/** The sheet's first rows as they stand: priced with a receipt link, refused with the error, or not yet. */
function PreviewRows(props: { preview: SheetRow[] }) {
  return (
    <section class="card">
      <h2>First rows</h2>
      <DataTable
        label="First rows"
        compact
        columns={[
          { label: "Row", class: "num" },
          { label: "Origin" },
          { label: "Destination" },
          { label: "Rate per mile", class: "num" },
          { label: "Total", class: "num" },
          { label: "Receipt or error" },
        ]}
        empty="No rows."
        rows={props.preview.map((row) => {
          const outcome = row.outcome;
          return (
            <tr>
              <td class="num" safe>
                {String(row.row)}
              </td>
              <td safe>{cellOf(row.cells, "origin")}</td>
              <td safe>{cellOf(row.cells, "destination")}</td>
              <td class="num">{outcome && isPriced(outcome) ? money(outcome.rate_per_mile) : ""}</td>
              <td class="num">{outcome && isPriced(outcome) ? money(outcome.total_cost) : ""}</td>
              <td>
                {outcome === null ? (
                  <span class="muted">Not priced yet</span>
                ) : isPriced(outcome) ? (
                  <a href={`/dashboard/receipts/${outcome.receipt_id}`} safe>
                    {outcome.receipt_id}
                  </a>
                ) : (
                  <span class="error-text" safe>{`${outcome.error}: ${outcome.message}`}</span>
                )}
              </td>
            </tr>
          );
        })}
      />
    </section>
  );
}
