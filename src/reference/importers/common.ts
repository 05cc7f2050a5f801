import { isCalendarDate } from "../../dates.ts";

/** A file that is not in the expected format; the message is one line the operator can act on. */
export class ImportFormatError extends Error {
  override name = "ImportFormatError";
}

/**
 * The rows of a JSON array, each checked to be an object; `null`, a number or a nested array is refused
 * with its place (`response.data[3] is null, not a row object`).
 */
export function jsonObjectRows(rows: unknown[], name: string): { row: Record<string, unknown>; where: string }[] {
  return rows.map((row, i) => {
    const where = `${name}[${i}]`;
    if (row === null || typeof row !== "object" || Array.isArray(row)) {
      const kind = row === null ? "null" : Array.isArray(row) ? "an array" : `a ${typeof row}`;
      throw new ImportFormatError(`${where} is ${kind}, not a row object`);
    }
    return { row: row as Record<string, unknown>, where };
  });
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** [year, month, day] of ISO (with or without time), MM/DD/YYYY or "Sep 28, 2026"; undefined for anything else. */
function dateParts(text: string): [number, number, number] | undefined {
  // Every group matches at least one digit or letter, so a match's groups are never empty.
  const [, isoYear, isoMonth, isoDay] = /^(\d{4})-(\d{2})-(\d{2})/.exec(text) ?? [];
  if (isoYear && isoMonth && isoDay) return [+isoYear, +isoMonth, +isoDay];
  const [, usMonth, usDay, usYear] = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text) ?? [];
  if (usMonth && usDay && usYear) return [+usYear, +usMonth, +usDay];
  const [, monthName, day, year] = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})$/.exec(text) ?? [];
  if (monthName && day && year) return [+year, MONTHS.indexOf(monthName.toLowerCase()) + 1, +day];
  return undefined;
}

/** ISO `YYYY-MM-DD` from the date spellings official downloads use: ISO (with or without time), MM/DD/YYYY, "Sep 28, 2026". */
export function isoDate(text: string): string | undefined {
  const parts = dateParts(text.trim());
  if (!parts) return undefined;
  const [year, month, day] = parts;
  const iso = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return isCalendarDate(iso) ? iso : undefined;
}

/** Splits one CSV line, honouring double quotes. Even an empty line has one (empty) cell. */
export function csvCells(line: string): [first: string, ...rest: string[]] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line.charAt(i);
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      cells.push(cell.trim());
      cell = "";
    } else cell += char;
  }
  const last = cell.trim();
  const [first, ...rest] = cells;
  return first === undefined ? [last] : [first, ...rest, last];
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

/**
 * The records of a CSV table whose first line is its header: each row as a map of lower-cased
 * column name to cell, with its line number. `required` columns must all be in the header.
 */
export function* csvRecords(
  lines: Iterable<string>,
  required: readonly (string | readonly string[])[],
  expected: string,
): Generator<{ row: Record<string, string>; where: string }> {
  let header: string[] | undefined;
  let lineNo = 0;
  for (const line of lines) {
    lineNo++;
    const cells = csvCells(line);
    if (!header) {
      const columns = cells.map((cell) => cell.toLowerCase());
      header = columns;
      const missing = required.filter(
        (names) => !(typeof names === "string" ? [names] : names).some((name) => columns.includes(name)),
      );
      if (missing.length > 0)
        throw new ImportFormatError(
          `header lacks ${missing.map((m) => (typeof m === "string" ? m : m.join(" or "))).join(", ")} (expected ${expected})`,
        );
      continue;
    }
    yield { row: Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ""])), where: `line ${lineNo}` };
  }
}
