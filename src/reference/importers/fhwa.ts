import type { ParsedObservation } from "../admit.ts";
import { stateDieselExciseSeries } from "../series-ids.ts";
import { csvCells, ImportFormatError, isoDate, requireValue } from "./common.ts";

/**
 * FHWA Highway Statistics table MF-121T as a CSV: `state,diesel_excise_cents_per_gal,effective_date`.
 * Each rate is dated by its effective date. A row without a rate (DC in the 2024 table) or without a
 * date (the federal row, whose rate the table does not date) is passed over.
 */
export function* parseFhwa(lines: Iterable<string>): Generator<ParsedObservation> {
  let header: string[] | undefined;
  let lineNo = 0;
  for (const line of lines) {
    lineNo++;
    const cells = csvCells(line);
    if (!header) {
      header = cells.map((cell) => cell.toLowerCase());
      if (!["state", "diesel_excise_cents_per_gal", "effective_date"].every((name) => header!.includes(name))) {
        throw new ImportFormatError("header must name state, diesel_excise_cents_per_gal and effective_date (an MF-121T table)");
      }
      continue;
    }
    const row = Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ""]));
    const where = `line ${lineNo}`;
    if (row.diesel_excise_cents_per_gal === "" || row.effective_date === "" || !/^[A-Z]{2}$/.test(row.state ?? "")) continue;
    const observedOn = isoDate(row.effective_date!);
    if (!observedOn) throw new ImportFormatError(`${where}: effective date '${row.effective_date}' is not a date`);
    yield { seriesId: stateDieselExciseSeries(row.state!), observedOn, value: requireValue(row.diesel_excise_cents_per_gal!, where), where };
  }
}
