import ExcelJS from "exceljs";

/** A one-worksheet workbook: a bold header row naming `columns`, then `rows` in that order. */
export async function workbookOf(worksheetName: string, columns: readonly string[], rows: readonly unknown[][]) {
  const workbook = new ExcelJS.Workbook();
  const worksheet = workbook.addWorksheet(worksheetName);
  worksheet.addRow([...columns]);
  worksheet.getRow(1).font = { bold: true };
  for (const row of rows) worksheet.addRow(row);
  const written = new Uint8Array(await workbook.xlsx.writeBuffer());
  return written.slice().buffer;
}
