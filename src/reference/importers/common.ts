import type { ParsedObservation } from "../append.ts";
import { isCalendarDate } from "../../dates.ts";

/** A file that is not in the expected format; the message is one line the operator can act on. */
export class ImportFormatError extends Error {
  override name = "ImportFormatError";
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** ISO `YYYY-MM-DD` from the date spellings official downloads use: ISO (with or without time), MM/DD/YYYY, "Sep 28, 2026". */
export function isoDate(text: string): string | undefined {
  const trimmed = text.trim();
  let year: number, month: number, day: number;
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})-(\d{2})-(\d{2})/.exec(trimmed))) [year, month, day] = [+match[1]!, +match[2]!, +match[3]!];
  else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed))) [year, month, day] = [+match[3]!, +match[1]!, +match[2]!];
  else if ((match = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})$/.exec(trimmed)))
    [year, month, day] = [+match[3]!, MONTHS.indexOf(match[1]!.toLowerCase()) + 1, +match[2]!];
  else return undefined;
  const iso = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return isCalendarDate(iso) ? iso : undefined;
}

/** Splits one CSV line, honouring double quotes. */
export function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') (cell += '"'), i++;
      else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") cells.push(cell.trim()), (cell = "");
    else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

export const lines = (text: string): string[] => text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((line) => line.trim() !== "");

export function requireValue(text: string, where: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value)) throw new ImportFormatError(`${where}: '${text}' is not a number`);
  return value;
}

export function nonEmpty(rows: ParsedObservation[], format: string): ParsedObservation[] {
  if (rows.length === 0) throw new ImportFormatError(`no observations found; is this a ${format} file?`);
  return rows;
}
