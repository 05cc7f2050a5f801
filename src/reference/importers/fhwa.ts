import type { ParsedObservation } from "../storage/admit.ts";
import { stateDieselExciseSeries } from "../series/series-ids.ts";
import { csvRecords, ImportFormatError, isoDate, requireValue } from "./common.ts";

/**
 * FHWA Highway Statistics table MF-121T as a CSV: `state,diesel_excise_cents_per_gal,effective_date`.
 * Each rate is dated by its effective date. A row without a rate (DC in the 2024 table) or without a
 * date (the federal row, whose rate the table does not date) is passed over.
 */
export function* parseFhwa(lines: Iterable<string>): Generator<ParsedObservation> {
  for (const { row, where } of csvRecords(
    lines,
    ["state", "diesel_excise_cents_per_gal", "effective_date"],
    "an MF-121T table",
  )) {
    // csvRecords gives every header column a cell (empty when the line is short).
    const { state, diesel_excise_cents_per_gal: excise, effective_date: effective } = row;
    if (!excise || !effective || state === undefined || !/^[A-Z]{2}$/.test(state)) continue;
    const observedOn = isoDate(effective);
    if (!observedOn) throw new ImportFormatError(`${where}: effective date '${effective}' is not a date`);
    yield {
      seriesId: stateDieselExciseSeries(state),
      observedOn,
      value: requireValue(excise, where),
      where,
    };
  }
}
