/**
 * A local stand-in for the official APIs, answering in each one's documented response format:
 * EIA API v2 (`response.total` + `response.data[]`, paged by offset/length), FRED
 * series/observations JSON (`count`, `offset`, `limit`, `observations[]` from `observation_start`
 * on; errors as `error_code`/`error_message`; the heavy-truck PPI from a recorded answer in
 * test/fixtures), BLS Public Data API v2 (`status`, `message[]`, `Results.series[]`),
 * MyMarketNews (a list of report sections with `results[]`), and FMCSA's census on a Socrata portal
 * (SODA `/resource/<id>.csv`: `$select`, `$order`, `$limit`/`$offset` paging, a quoted header row on
 * every page, `Last-Modified`, JSON error bodies with `code`, `error` and `message`).
 * Without keys: EIA's weekly diesel workbook (`psw18vwall.xls`, BIFF8, a Contents sheet and a "Data 1"
 * sheet of Sourcekey / Date rows and Excel-dated weeks), FRED's `graph/fredgraph.csv`, BLS API v1 (at
 * most 25 series a request) and USDA AgTransport's SODA dataset `acar-e3r8` as JSON.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { utils, write } from "@e965/xlsx";
import { DIESEL_AREAS, dieselSeriesId } from "../../src/reference/series/series-ids.ts";
import { FMCSA_CENSUS_DATASET } from "../../src/reference/sync/fmcsa.ts";
import { AMS_TRUCK_RATES_DATASET } from "../../src/reference/sync/keyless.ts";
import { defined } from "../support/defined.ts";

export interface FakeApiOptions {
  /** Weeks of EIA data per series (11 series): above 454 the answer needs two pages of 5,000. */
  eiaWeeks?: number;
  lastMonday?: string;
  /** Value overrides: "SERIES|YYYY-MM-DD" -> value (a revision). */
  revised?: Map<string, number>;
  fredFailsOn?: string;
  blsDelayMs?: number;
  /** The census the portal serves: a header row (upper-case, as FMCSA names the columns) and data rows; a small one by default. */
  census?: string[][];
  /** `Last-Modified` of the census dataset (an HTTP date). */
  censusLastModified?: string;
  /** The census page at this offset answers with a SODA error body. */
  censusFailsAtOffset?: number;
  /** The census page at this offset sends its header and then stalls. */
  censusStallsAtOffset?: number;
}

const CENSUS_MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

/** A published `DD-MON-YY` cell as SODA serves a floating timestamp (`YYYY-MM-DDT00:00:00.000`). */
function sodaTimestamp(cell: string): string {
  const [, day, month, yy] = /^(\d{2})-([A-Z]{3})-(\d{2})$/.exec(cell) ?? [];
  if (day === undefined || month === undefined || yy === undefined) return cell;
  const year = Number(yy) >= 70 ? `19${yy}` : `20${yy}`;
  return `${year}-${String(CENSUS_MONTHS.indexOf(month) + 1).padStart(2, "0")}-${day}T00:00:00.000`;
}

/** Twelve carriers in three states, for runs that are not about the census; flags as a portal checkbox (`true`/`false`). */
export const SMALL_CENSUS: string[][] = [
  [
    "DOT_NUMBER",
    "CARRIER_OPERATION",
    "PHY_STATE",
    "NBR_POWER_UNIT",
    "DRIVER_TOTAL",
    "MCS150_DATE",
    "ADD_DATE",
    "AUTHORIZED_FOR_HIRE",
    "EXEMPT_FOR_HIRE",
  ],
  ...Array.from({ length: 12 }, (_, i) => [
    String(2_000_000 + i),
    defined("ABC"[i % 3], "a carrier operation"),
    defined(["TX", "GA", "OH"][i % 3], "a state"),
    String(1 + i),
    String(2 + i),
    "10-OCT-26",
    "01-MAR-19",
    String(i !== 11),
    "false",
  ]),
];

const sodaCsvRow = (cells: string[]) => `${cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(",")}\n`;

const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface FredObservationsAnswer {
  realtime_start: string;
  realtime_end: string;
  observation_start: string;
  count: number;
  offset: number;
  limit: number;
  observations: { realtime_start: string; realtime_end: string; date: string; value: string }[];
  [field: string]: unknown;
}

const readFredFixture = (name: string): FredObservationsAnswer =>
  JSON.parse(readFileSync(join(import.meta.dir, "../fixtures", name), "utf8"));

/** Series answered from a recorded FRED answer (real figures); the others get made-up figures. */
const FRED_FIXTURES: Record<string, FredObservationsAnswer> = {
  PCU336120336120: readFredFixture("fred_observations_pcu336120336120.json"),
};

/** Made-up figures for the series FRED answers without a fixture; undefined for a series it does not know. */
const SYNTHETIC_FRED_LEVELS: Record<string, number> = {
  WPU301: 176,
  TSIFRGHT: 137,
  FEDFUNDS: 3.6,
  INDPRO: 103,
  DCOILWTICO: 62,
};

function syntheticFredAnswer(seriesId: string): FredObservationsAnswer | undefined {
  const level = SYNTHETIC_FRED_LEVELS[seriesId];
  if (level === undefined) return undefined;
  const monthly = seriesId !== "DCOILWTICO";
  const observations = Array.from({ length: 6 }, (_, i) => ({
    realtime_start: "2026-11-23",
    realtime_end: "2026-11-23",
    date: monthly ? `2026-0${i + 3}-01` : addDays("2026-11-02", i),
    value: i === 5 && !monthly ? "." : String(level + i / 10),
  }));
  return {
    realtime_start: "2026-11-23",
    realtime_end: "2026-11-23",
    observation_start: "1776-07-04",
    observation_end: "9999-12-31",
    units: "lin",
    output_type: 1,
    file_type: "json",
    order_by: "observation_date",
    sort_order: "asc",
    count: observations.length,
    offset: 0,
    limit: 100000,
    observations,
  };
}

/** FRED's answer to a request: observations from `observation_start` on, `limit` of them from `offset`, `count` before paging. */
function fredObservations(answer: FredObservationsAnswer, search: URLSearchParams): FredObservationsAnswer {
  const start = search.get("observation_start") ?? "1776-07-04";
  const offset = Number(search.get("offset") ?? 0);
  const limit = Number(search.get("limit") ?? 100_000);
  const inPeriod = answer.observations.filter((o) => o.date >= start);
  return {
    ...answer,
    observation_start: start,
    count: inPeriod.length,
    offset,
    limit,
    observations: inPeriod.slice(offset, offset + limit),
  };
}

/** EIA's weekly history workbook as the Gasoline and Diesel Fuel Update serves it (an .xls, BIFF8). */
export function eiaDieselWorkbook(rows: { period: string; series: string; value: string }[]): Buffer {
  const series = [...new Set(rows.map((r) => r.series))];
  const periods = [...new Set(rows.map((r) => r.period))].sort();
  const byKey = new Map(
    rows.map((r) => [`${r.series}|${r.period}`, Number.isNaN(Number(r.value)) ? r.value : Number(r.value)]),
  );
  const excelDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000 + 25_569;
  const data = [
    ["Back to Contents", "Data 1: No 2 Diesel"],
    ["Sourcekey", ...series],
    ["Date", ...series.map((id) => `Weekly ${id.split("_")[3]} No 2 Diesel Retail Prices  (Dollars per Gallon)`)],
    ...periods.map((period) => [excelDay(period), ...series.map((id) => byKey.get(`${id}|${period}`) ?? "")]),
  ];
  const book = utils.book_new();
  utils.book_append_sheet(
    book,
    utils.aoa_to_sheet([["Weekly Retail On-Highway Diesel Prices"], ["Release Date:", "11/17/2026"]]),
    "Contents",
  );
  utils.book_append_sheet(book, utils.aoa_to_sheet(data), "Data 1");
  return write(book, { bookType: "biff8", type: "buffer" }) as Buffer;
}

export interface FakeApi {
  url: string;
  requests: {
    path: string;
    search: URLSearchParams;
    method: string;
    authorization: string | null;
    appToken: string | null;
    body?: unknown;
  }[];
  stop(): void;
}

export function startFakeApis(options: FakeApiOptions = {}): FakeApi {
  const weeks = options.eiaWeeks ?? 460;
  const lastMonday = options.lastMonday ?? "2026-11-16";
  const revised = options.revised ?? new Map<string, number>();
  const eiaRows = DIESEL_AREAS.flatMap((area, a) =>
    Array.from({ length: weeks }, (_, w) => {
      const period = addDays(lastMonday, -7 * (weeks - 1 - w));
      const series = dieselSeriesId(area);
      const value = revised.get(`${series}|${period}`) ?? Math.round((3 + a * 0.05 + w * 0.001) * 1000) / 1000;
      return {
        period,
        duoarea: series.split("_")[3],
        "area-name": area,
        product: "EPD2D",
        "product-name": "No 2 Diesel",
        process: "PTE",
        "process-name": "Retail Sales",
        series,
        "series-description": `${area} diesel`,
        value: String(value),
        units: "$/GAL",
      };
    }),
  );
  const census = options.census ?? SMALL_CENSUS;
  const censusColumns = defined(census[0], "the census header").map((column) => column.toLowerCase());
  const censusRows = census.slice(1);
  /** One page of the census in SODA's CSV: only the `$select`ed columns, `$limit` rows from `$offset`. */
  const censusPage = (search: URLSearchParams): Response => {
    const offset = Number(search.get("$offset") ?? 0);
    const limit = Number(search.get("$limit") ?? 1000);
    const selected = (search.get("$select") ?? censusColumns.join(",")).split(",");
    const missing = selected.find((column) => !censusColumns.includes(column));
    if (missing || offset === options.censusFailsAtOffset) {
      const message = missing ? `No such column: ${missing}` : "Internal error while reading the dataset";
      return Response.json(
        { code: missing ? "query.soql.no-such-column" : "internal", error: true, message },
        { status: missing ? 400 : 500 },
      );
    }
    const at = selected.map((column) => censusColumns.indexOf(column));
    const header = sodaCsvRow(selected);
    const body = censusRows
      .slice(offset, offset + limit)
      .map((row) =>
        sodaCsvRow(
          at.map((i) => (/_DATE$/i.test(censusColumns[i] ?? "") ? sodaTimestamp(row[i] ?? "") : (row[i] ?? ""))),
        ),
      )
      .join("");
    const headers = {
      "Content-Type": "text/csv; charset=UTF-8",
      "Last-Modified": options.censusLastModified ?? "Sun, 01 Nov 2026 06:12:40 GMT",
      "X-SODA2-Fields": JSON.stringify(selected),
    };
    if (offset !== options.censusStallsAtOffset) return new Response(header + body, { headers });
    const stalled = new ReadableStream({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(header));
        await Bun.sleep(5_000);
        controller.close();
      },
    });
    return new Response(stalled, { headers });
  };
  const requests: FakeApi["requests"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "POST" ? await request.json() : undefined;
      requests.push({
        path: url.pathname,
        search: url.searchParams,
        method: request.method,
        authorization: request.headers.get("authorization"),
        appToken: request.headers.get("x-app-token"),
        body,
      });
      if (url.pathname === "/v2/petroleum/pri/gnd/data/") {
        if (url.searchParams.get("api_key") !== "eia-key")
          return Response.json(
            { error: { code: "API_KEY_INVALID", message: "An invalid api_key was supplied." } },
            { status: 403 },
          );
        const offset = Number(url.searchParams.get("offset"));
        const length = Number(url.searchParams.get("length"));
        return Response.json({
          response: {
            total: eiaRows.length,
            dateFormat: "YYYY-MM-DD",
            frequency: "weekly",
            data: eiaRows.slice(offset, offset + length),
          },
          request: { command: "/v2/petroleum/pri/gnd/data/" },
          apiVersion: "2.1.8",
        });
      }
      if (url.pathname === "/petroleum/gasdiesel/xls/psw18vwall.xls")
        return new Response(new Blob([new Uint8Array(eiaDieselWorkbook(eiaRows))]), {
          headers: { "Content-Type": "application/vnd.ms-excel" },
        });
      if (url.pathname === "/graph/fredgraph.csv") {
        const seriesId = url.searchParams.get("id") ?? "";
        const answer =
          seriesId === options.fredFailsOn ? undefined : (FRED_FIXTURES[seriesId] ?? syntheticFredAnswer(seriesId));
        if (!answer) return new Response("<html><body>Series not found</body></html>", { status: 404 });
        const start = url.searchParams.get("cosd") ?? "1776-07-04";
        const lines = answer.observations
          .filter((o) => o.date >= start)
          .map((o) => `${o.date},${o.value === "." ? "" : o.value}`);
        return new Response(`observation_date,${seriesId}\n${lines.join("\n")}\n`, {
          headers: { "Content-Type": "text/csv" },
        });
      }
      if (url.pathname === `/resource/${AMS_TRUCK_RATES_DATASET}.json`) {
        const since = /date >= '(\d{4}-\d{2}-\d{2})/.exec(url.searchParams.get("$where") ?? "")?.[1] ?? "";
        const offset = Number(url.searchParams.get("$offset") ?? 0);
        const limit = Number(url.searchParams.get("$limit") ?? 1000);
        const lanes = AGTRANSPORT_LANES.filter((row) => row.date.slice(0, 10) >= since);
        return Response.json(lanes.slice(offset, offset + limit));
      }
      if (url.pathname === "/fred/series/observations") {
        const seriesId = url.searchParams.get("series_id") ?? "";
        const answer =
          seriesId === options.fredFailsOn ? undefined : (FRED_FIXTURES[seriesId] ?? syntheticFredAnswer(seriesId));
        if (!answer)
          return Response.json(
            { error_code: 400, error_message: `Bad Request.  The series ${seriesId} does not exist.` },
            { status: 400 },
          );
        return Response.json(fredObservations(answer, url.searchParams));
      }
      const blsVersion = /^\/publicAPI\/(v[12])\/timeseries\/data\/$/.exec(url.pathname)?.[1];
      if (blsVersion) {
        if (options.blsDelayMs) await Bun.sleep(options.blsDelayMs);
        const ids = (body as { seriesid: string[] }).seriesid;
        if (blsVersion === "v1" && ids.length > 25)
          return Response.json({
            status: "REQUEST_NOT_PROCESSED",
            responseTime: 5,
            message: ["Request could not be serviced, as the number of series requested exceeds the limit of 25."],
            Results: {},
          });
        const series = ids.map((seriesID) => ({
          seriesID,
          data: seriesID.startsWith("OEU")
            ? [
                {
                  year: "2025",
                  period: "A01",
                  periodName: "Annual",
                  latest: "true",
                  value: seriesID.endsWith("01") ? "37490" : "28.40",
                  footnotes: [{}],
                },
              ]
            : [
                {
                  year: "2026",
                  period: "M09",
                  periodName: "September",
                  latest: "true",
                  value: "1466.0",
                  footnotes: [{ code: "P", text: "preliminary" }],
                },
                { year: "2026", period: "M08", periodName: "August", value: "1465.5", footnotes: [{}] },
              ],
        }));
        return Response.json({ status: "REQUEST_SUCCEEDED", responseTime: 120, message: [], Results: { series } });
      }
      if (url.pathname === "/services/v1.2/reports/2375") {
        if (request.headers.get("authorization") !== `Basic ${btoa("ams-key:")}`)
          return Response.json({ message: "Unauthorized" }, { status: 401 });
        return Response.json([
          {
            reportSection: "Report Header",
            results: [
              {
                report_date: "11/17/2026",
                slug_id: "2375",
                report_title: "Specialty Crops National Truck Rate Report",
              },
            ],
          },
          {
            reportSection: "Report Detail",
            results: [
              {
                report_date: "11/17/2026",
                district: "GEORGIA",
                destination: "Atlanta",
                low_price: "1100",
                high_price: "1300",
                commodity: "SWEET POTATOES",
              },
              {
                report_date: "11/17/2026",
                district: "YAKIMA VALLEY AND WENATCHEE DISTRICT WASHINGTON",
                destination: "Seattle",
                low_price: "950",
                high_price: "1250",
                commodity: "APPLES AND PEARS",
              },
            ],
          },
        ]);
      }
      if (url.pathname === `/resource/${FMCSA_CENSUS_DATASET}.csv`) return censusPage(url.searchParams);
      return Response.json({ error: "not found" }, { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

/** AgTransport's FVWTRK rows (SODA JSON: floating timestamps, numbers as strings), two report weeks. */
const AGTRANSPORT_LANES = [
  ["2026-11-10", "GEORGIA", "Atlanta", "1000", "1200"],
  ["2026-11-17", "GEORGIA", "Atlanta", "1100", "1300"],
  ["2026-11-17", "SOUTH DISTRICT CALIFORNIA", "Chicago", "6200", "6800"],
].map(([date, origin, destination, weeklow, weekhigh]) => ({
  date: `${date}T00:00:00.000`,
  region: "Southeast",
  origin,
  destination,
  commodity: "Mixed produce",
  distance: "1500",
  weeklow,
  weekhigh,
  availability: "Adequate",
}));

export const syncEnv = (url: string, keys = true): Record<string, string | undefined> => ({
  ...(keys
    ? {
        WAYBILL_EIA_API_KEY: "eia-key",
        WAYBILL_FRED_API_KEY: "fred-key",
        WAYBILL_BLS_API_KEY: "bls-key",
        WAYBILL_AMS_API_KEY: "ams-key",
      }
    : {}),
  WAYBILL_EIA_URL: url,
  WAYBILL_FRED_URL: url,
  WAYBILL_BLS_URL: url,
  WAYBILL_AMS_URL: url,
  WAYBILL_FMCSA_URL: url,
  WAYBILL_EIA_FILES_URL: url,
  WAYBILL_FRED_CSV_URL: url,
  WAYBILL_AGTRANSPORT_URL: url,
});
