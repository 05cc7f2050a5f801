/// <reference lib="webworker" />
// Runs in a Bun Worker (src/batch/xlsx-reader.ts): exceljs reads a workbook in one go, and a
// 10,000-lane sheet would otherwise hold the server's event loop for 100–230 ms (docs/batch.md).
import ExcelJS from "exceljs";
import type { XlsxReadReply } from "./xlsx-reader.ts";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<Uint8Array>) => {
  self.postMessage(await readWorkbook(event.data));
};

/** The first worksheet's header cells and, per non-blank row below it, the text of those columns. */
async function readWorkbook(bytes: Uint8Array): Promise<XlsxReadReply> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    return { problem: "is not a readable XLSX workbook" };
  }
  const worksheet = workbook.worksheets[0];
  if (!worksheet) return { problem: "has no worksheet" };
  const columns: string[] = [];
  const positions: number[] = [];
  worksheet.getRow(1).eachCell((cell, index) => {
    const name = cellText(cell.value).trim();
    if (name === "") return;
    columns.push(name);
    positions.push(index);
  });
  const rows: string[][] = [];
  worksheet.eachRow((row, index) => {
    if (index === 1) return;
    const cells = positions.map((at) => cellText(row.getCell(at).value));
    if (cells.some((value) => value !== "")) rows.push(cells);
  });
  return { columns, rows };
}

/** What a spreadsheet cell shows, as text: a date as YYYY-MM-DD, a formula as its result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== "object") return String(value);
  if ("result" in value) return cellText(value.result as ExcelJS.CellValue);
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("text" in value) return String(value.text);
  return "";
}
