import type { ParsedObservation } from "../storage/admit.ts";
import { seriesRule } from "../series/catalog.ts";
import { ImportFormatError, requireValue } from "./common.ts";

/**
 * The date a BLS period stands for. OEWS estimates (series ids starting OEU) are annual with
 * period A01 and describe May of the year; other annual figures are dated January 1.
 */
function periodDate(seriesId: string, year: string, period: string): string | undefined {
  const number = Number(period.slice(1));
  switch (period[0]) {
    case "M":
      return number >= 1 && number <= 12 ? `${year}-${String(number).padStart(2, "0")}-01` : undefined; // M13 = annual average
    case "Q":
      return number >= 1 && number <= 4 ? `${year}-${String(number * 3 - 2).padStart(2, "0")}-01` : undefined;
    case "S":
      return number === 1 ? `${year}-01-01` : number === 2 ? `${year}-07-01` : undefined;
    case "A":
      return number === 1 ? (seriesId.startsWith("OEU") ? `${year}-05-01` : `${year}-01-01`) : undefined;
    default:
      return undefined;
  }
}

/**
 * A BLS time-series flat file (download.bls.gov/pub/time.series/...): tab-separated
 * `series_id year period value [footnote_codes]`. Series the product does not use are passed over
 * before their value is read, so a whole-survey file costs only the time to scan it.
 */
export function* parseBls(lines: Iterable<string>): Generator<ParsedObservation> {
  let lineNo = 0;
  for (const line of lines) {
    lineNo++;
    if (lineNo === 1) {
      const header = line.trim().split(/\s+/);
      if (header[0] !== "series_id" || header[1] !== "year" || header[2] !== "period" || header[3] !== "value") {
        throw new ImportFormatError("first line must be 'series_id year period value' (a BLS time-series flat file)");
      }
      continue;
    }
    const where = `line ${lineNo}`;
    const [seriesId, year, period, value] = line.trim().split(/\s+/);
    if (!seriesId || !year || !period || value === undefined)
      throw new ImportFormatError(`${where}: expected 4 columns`);
    if (!seriesRule(seriesId)) continue;
    if (!/^\d{4}$/.test(year)) throw new ImportFormatError(`${where}: year '${year}' is not a year`);
    if (value === "-" || value === "(NA)") continue;
    const observedOn = periodDate(seriesId, year, period);
    if (observedOn) yield { seriesId, observedOn, value: requireValue(value, where), where };
  }
}
