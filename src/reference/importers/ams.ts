import type { ParsedObservation } from "../storage/admit.ts";
import { isPrintedAmsRange } from "../readings/ams-range.ts";
import { type AmsRangeEnd, amsFvwtrkSeries } from "../series/series-ids.ts";
import { csvRecords, ImportFormatError, isoDate, jsonObjectRows, parseDecimal } from "./common.ts";

/**
 * USDA AMS Specialty Crops National Truck Rate Report (FVWTRK): refrigerated truckload rates in USD
 * per load, a low-high range per shipping district and destination city, weekly. Read as published:
 *   - a CSV table of the report (one row per district, destination and commodity block) with columns
 *     report_date, origin_district (or district/origin), destination, rate_low_usd_per_load and
 *     rate_high_usd_per_load (or low_price/high_price, weeklow/weekhigh);
 *   - MyMarketNews (MARS API) JSON, `{ "results": [row, ...] }` or a bare array, with the same fields
 *     (report_date | report_end_date | report_begin_date, district | origin, destination,
 *     low_price | weeklow, high_price | weekhigh), optionally truck_type (non-refrigerated rows skipped).
 * Each lane yields AMS_FVWTRK_REEFER_LOW_<district>__<destination> and ..._HIGH_..., dated by the
 * report date. When the report prints one lane in several commodity blocks, the lane's range is their
 * envelope (lowest low, highest high). Lines the report prints where a district belongs ("FIRST
 * REPORT", "LAST REPORT": season notes) name no district and are skipped. docs/data-sources.md.
 */
type Row = Record<string, unknown>;

const DATE_FIELDS = ["report_date", "report_end_date", "report_begin_date", "date"];
const DISTRICT_FIELDS = ["origin_district", "district", "origin"];
const DESTINATION_FIELDS = ["destination", "destination_city"];
const LOW_FIELDS = ["rate_low_usd_per_load", "low_price", "weeklow"];
const HIGH_FIELDS = ["rate_high_usd_per_load", "high_price", "weekhigh"];

const field = (row: Row, names: string[]): string => {
  const value = names.map((name) => row[name]).find((v) => v !== undefined && v !== null && v !== "");
  return value === undefined ? "" : String(value).trim();
};

const SEASON_NOTE = /^(FIRST|LAST|FINAL) REPORT\b/i;

interface Lane {
  district: string;
  destination: string;
  reportDate: string;
  low: number;
  high: number;
  where: string;
}

function readLane(row: Row, where: string): Lane | undefined {
  const equipment = field(row, ["truck_type", "equipment"]).toLowerCase();
  if (equipment !== "" && !/refr|reefer/.test(equipment)) return undefined;
  const district = field(row, DISTRICT_FIELDS);
  if (district === "" || SEASON_NOTE.test(district)) return undefined;
  const destination = field(row, DESTINATION_FIELDS);
  if (destination === "") throw new ImportFormatError(`${where}: no destination`);
  const dateText = field(row, DATE_FIELDS);
  const reportDate = isoDate(dateText);
  if (!reportDate) throw new ImportFormatError(`${where}: report date '${dateText}' is not a date`);
  const lowText = field(row, LOW_FIELDS);
  const highText = field(row, HIGH_FIELDS);
  const low = parseDecimal(lowText);
  const high = parseDecimal(highText);
  if (low === undefined || high === undefined) {
    throw new ImportFormatError(
      `${where}: rate range '${lowText}'-'${highText}' is not two decimal numbers (USD per load)`,
    );
  }
  if (low > high) throw new ImportFormatError(`${where}: low rate ${low} is above high rate ${high}`);
  if (low > 0 && !isPrintedAmsRange(low, high)) {
    throw new ImportFormatError(
      `${where}: rate range ${low}-${high} is not one the report prints (low under half the high: a misprint; correct or drop the line)`,
    );
  }
  return { district, destination, reportDate, low, high, where };
}

function* laneObservations(lanes: Iterable<Lane>): Generator<ParsedObservation> {
  const envelopes = new Map<string, Lane>();
  for (const lane of lanes) {
    const key = `${amsFvwtrkSeries("LOW", lane.district, lane.destination)}\u0000${lane.reportDate}`;
    const seen = envelopes.get(key);
    if (seen) envelopes.set(key, { ...seen, low: Math.min(seen.low, lane.low), high: Math.max(seen.high, lane.high) });
    else envelopes.set(key, lane);
  }
  for (const lane of envelopes.values()) {
    for (const [kind, value] of [
      ["LOW", lane.low],
      ["HIGH", lane.high],
    ] as [AmsRangeEnd, number][]) {
      yield {
        seriesId: amsFvwtrkSeries(kind, lane.district, lane.destination),
        observedOn: lane.reportDate,
        value,
        where: lane.where,
      };
    }
  }
}

function jsonRows(text: string): { row: Row; where: string }[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ImportFormatError("not valid JSON (expected a USDA AMS MyMarketNews API response)");
  }
  const bare = Array.isArray(body);
  const rows = bare ? body : (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(rows))
    throw new ImportFormatError("JSON has no 'results' array (expected a USDA AMS MyMarketNews API response)");
  return jsonObjectRows(rows, bare ? "array" : "results");
}

/** The FVWTRK report as a CSV table, line by line. */
export function parseAmsCsv(lines: Iterable<string>): Iterable<ParsedObservation> {
  const lanes: Lane[] = [];
  const required = [DATE_FIELDS, DISTRICT_FIELDS, DESTINATION_FIELDS, LOW_FIELDS, HIGH_FIELDS];
  for (const { row, where } of csvRecords(
    lines,
    required,
    "an FVWTRK table: report_date, origin_district, destination, rate_low_usd_per_load, rate_high_usd_per_load",
  )) {
    const lane = readLane(row, where);
    if (lane) lanes.push(lane);
  }
  return laneObservations(lanes);
}

/** The FVWTRK report as MyMarketNews JSON. */
export function parseAmsJson(text: string): Iterable<ParsedObservation> {
  const lanes: Lane[] = [];
  for (const { row, where } of jsonRows(text)) {
    const lane = readLane(row, where);
    if (lane) lanes.push(lane);
  }
  return laneObservations(lanes);
}
