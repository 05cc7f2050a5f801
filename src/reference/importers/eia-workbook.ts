import { closeSync, openSync, readSync } from "node:fs";
import { read, utils } from "@e965/xlsx";
import type { ParsedObservation } from "../storage/admit.ts";
import { DIESEL_AREAS, dieselSeriesId } from "../series/series-ids.ts";
import { ImportFormatError, isoDate, requireValue } from "./common.ts";

/** The diesel series the model reads; a workbook's other columns (gasoline grades) are left alone. */
const DIESEL_IDS = new Set(DIESEL_AREAS.map(dieselSeriesId));

/** Days from Excel's 1900 date epoch to 1970-01-01. */
const EXCEL_EPOCH_OFFSET = 25_569;

/** A date cell as EIA writes it: an Excel serial day number (or, in a re-saved copy, a date string). */
function cellDate(cell: unknown): string | undefined {
  if (typeof cell === "number" && Number.isFinite(cell))
    return new Date(Math.round((cell - EXCEL_EPOCH_OFFSET) * 86_400_000)).toISOString().slice(0, 10);
  return typeof cell === "string" ? isoDate(cell) : undefined;
}

/** An OLE2 (.xls, BIFF8) or ZIP (.xlsx) container, by its first four bytes. */
export function isWorkbookFile(path: string): boolean {
  const bytes = new Uint8Array(4);
  const fd = openSync(path, "r");
  try {
    readSync(fd, bytes, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  return (
    (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) ||
    (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)
  );
}

/**
 * EIA's weekly history workbooks, as the Gasoline and Diesel Fuel Update publishes them
 * (`psw18vwall.xls`, every PADD and sub-PADD diesel series) and as the data browser exports a table
 * (`pet_pri_gnd_dcus_nus_w.xls`): a "Contents" sheet, then sheets "Data 1", "Data 2", ... each with a
 * title row, a `Sourcekey` row naming each column's series (EMD_EPD2D_PTE_<area>_DPG), a `Date` row
 * of descriptions, and then one row per week (an Excel date, then the prices). docs/data-sources.md.
 */
export function parseEiaWorkbook(bytes: Uint8Array): ParsedObservation[] {
  let book: ReturnType<typeof read>;
  try {
    book = read(bytes, { type: "array", dense: true });
  } catch (error) {
    throw new ImportFormatError(`not a readable workbook (${(error as Error).message})`);
  }
  const rows: ParsedObservation[] = [];
  let sawSourcekey = false;
  for (const name of book.SheetNames) {
    if (!/^Data \d+$/.test(name)) continue;
    const sheet = book.Sheets[name];
    if (!sheet) continue;
    const table = utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, blankrows: false });
    const keyRow = table.findIndex((row) => String(row[0] ?? "").trim() === "Sourcekey");
    if (keyRow < 0) continue;
    sawSourcekey = true;
    const columns = (table[keyRow] ?? []).map((cell) =>
      String(cell ?? "")
        .trim()
        .toUpperCase(),
    );
    table.slice(keyRow + 1).forEach((row, n) => {
      const observedOn = cellDate(row[0]);
      if (observedOn === undefined) {
        if (n === 0) return; // the `Date` row of descriptions
        throw new ImportFormatError(`sheet '${name}' row ${keyRow + n + 2}: '${row[0]}' is not a date`);
      }
      columns.forEach((seriesId, i) => {
        const cell = row[i];
        if (i === 0 || !DIESEL_IDS.has(seriesId) || cell === undefined || cell === null || cell === "") return;
        const where = `sheet '${name}' row ${keyRow + n + 2}`;
        rows.push({ seriesId, observedOn, value: requireValue(String(cell), where), where });
      });
    });
  }
  if (!sawSourcekey)
    throw new ImportFormatError("no 'Data N' sheet with a Sourcekey row (expected an EIA weekly history workbook)");
  return rows;
}
