import type { ParsedObservation } from "../append.ts";
import { normalizePlaceName, resolvePlace, splitCityState } from "../places.ts";
import { isStateCode, STATE_CODES, stateInfo, type StateCode } from "../regions.ts";
import { amsReeferLaneSeries } from "../series-ids.ts";
import { ImportFormatError, isoDate, nonEmpty } from "./common.ts";

/**
 * USDA AMS MyMarketNews (MARS API) JSON for the Specialty Crops National Truck Rate Report
 * (refrigerated trucks, weekly). Accepted: the API response `{ "results": [row, ...] }` or a bare
 * array of rows. Fields read from each row:
 *   date         report_end_date | report_date | report_begin_date   (MM/DD/YYYY or ISO)
 *   origin       origin district, e.g. "Central San Joaquin Valley, California" (its state is what counts)
 *   destination  destination city, e.g. "Chicago" or "Chicago, IL"
 *   rate         rpm | rate_per_mile (USD/mile), or a per-load price
 *                (avg_price | price_avg | midpoint | the mean of low_price/high_price or weeklow/weekhigh)
 *                divided by mileage | distance | miles
 *   equipment    truck_type | equipment (optional; a row that is not refrigerated is skipped)
 * Each lane becomes the series AMS_REEFER_RPM_<origin state>_<destination city>_<destination state>.
 */
type Row = Record<string, unknown>;

const field = (row: Row, ...names: string[]): unknown => names.map((name) => row[name]).find((v) => v !== undefined && v !== null && v !== "");

function numeric(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === "number" ? value : Number(String(value).replace(/[$,]/g, ""));
  return Number.isFinite(number) ? number : undefined;
}

const STATE_NAMES_LONGEST_FIRST = [...STATE_CODES]
  .map((code) => ({ code, name: normalizePlaceName(stateInfo(code).name) }))
  .sort((a, b) => b.name.length - a.name.length);

/** The state an AMS origin district lies in: a trailing code ("Salinas-Watsonville CA") or a state name anywhere. */
function originState(text: string): StateCode | undefined {
  const split = splitCityState(text);
  if (split.state) return split.state;
  const normalized = ` ${normalizePlaceName(text)} `;
  const byName = STATE_NAMES_LONGEST_FIRST.find(({ name }) => normalized.includes(` ${name} `));
  if (byName) return byName.code;
  const code = text.match(/\b([A-Z]{2})\b/g)?.find(isStateCode);
  return code as StateCode | undefined;
}

function perMile(row: Row, where: string): number {
  const direct = numeric(field(row, "rpm", "rate_per_mile"));
  if (direct !== undefined) return direct;
  const low = numeric(field(row, "low_price", "weeklow"));
  const high = numeric(field(row, "high_price", "weekhigh"));
  const perLoad = numeric(field(row, "avg_price", "price_avg", "midpoint")) ?? (low !== undefined && high !== undefined ? (low + high) / 2 : undefined);
  const miles = numeric(field(row, "mileage", "distance", "miles"));
  if (perLoad === undefined) throw new ImportFormatError(`${where}: no rate (rpm, rate_per_mile, avg_price or low_price/high_price)`);
  if (!miles || miles <= 0) throw new ImportFormatError(`${where}: a per-load rate needs mileage, distance or miles`);
  return Math.round((perLoad / miles) * 1000) / 1000;
}

export function parseAms(text: string): ParsedObservation[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ImportFormatError("not valid JSON (expected a USDA AMS MyMarketNews API response)");
  }
  const rows = Array.isArray(body) ? body : (body as { results?: unknown })?.results;
  if (!Array.isArray(rows)) throw new ImportFormatError("JSON has no 'results' array (expected a USDA AMS MyMarketNews API response)");
  const parsed: ParsedObservation[] = [];
  rows.forEach((row: Row, i) => {
    const where = `results[${i}]`;
    const equipment = String(field(row, "truck_type", "equipment") ?? "refrigerated").toLowerCase();
    if (!/refr|reefer/.test(equipment)) return;
    const observedOn = isoDate(String(field(row, "report_end_date", "report_date", "report_begin_date", "date") ?? ""));
    if (!observedOn) throw new ImportFormatError(`${where}: no report date (report_end_date, report_date or report_begin_date)`);
    const origin = String(field(row, "origin") ?? "");
    const state = originState(origin);
    if (!state) throw new ImportFormatError(`${where}: cannot tell the state of origin '${origin}'`);
    const destinationText = String(field(row, "destination") ?? "");
    const destination = resolvePlace(destinationText);
    if (!destination.ok) throw new ImportFormatError(`${where}: destination '${destinationText}' is not a known US city`);
    const { city, state: destinationState } = destination.place;
    parsed.push({ seriesId: amsReeferLaneSeries(state, city, destinationState), observedOn, value: perMile(row, where) });
  });
  return nonEmpty(parsed, "USDA AMS truck rate JSON");
}
