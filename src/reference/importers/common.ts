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
  else if ((match = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), ?(\d{4})$/.exec(trimmed)))
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


/**
 * A plain decimal as official files print it ("3.456", "-12", "1,234.5", "$6,000"), or undefined.
 * Hex, exponents, "Infinity" and the like are not figures any source publishes, so they are refused
 * rather than read the way Number() would read them ("0x10" is 16 to Number()).
 */
export function parseDecimal(text: string): number | undefined {
  const plain = text.trim().replace(/^\$/, "");
  if (!/^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$|^[-+]?\.\d+$/.test(plain)) return undefined;
  return Number(plain.replace(/,/g, ""));
}

export function requireValue(text: string, where: string): number {
  const value = parseDecimal(text);
  if (value === undefined) throw new ImportFormatError(`${where}: '${text}' is not a decimal number`);
  return value;
}
