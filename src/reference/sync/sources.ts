/**
 * The official APIs `waybill data sync` reads, each in its documented request and response format
 * (docs/data-sources.md, "Sync"). Every source turns its answers into observations; the runner stores
 * one source's batch as one import.
 */
import type { ParsedObservation } from "../storage/admit.ts";
import { parseAmsJson } from "../importers/ams.ts";
import { ImportFormatError, isoDate, requireValue } from "../importers/common.ts";
import { parseEiaJson } from "../importers/eia.ts";
import { STATE_CODES, stateInfo } from "../geo/regions.ts";
import {
  DIESEL_AREAS,
  dieselSeriesId,
  fmcsaCensusSeries,
  NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES,
  NATIONAL_TRUCK_DRIVER_WAGE_SERIES,
  stateTruckDriverEmploymentSeries,
  stateTruckDriverWageSeries,
} from "../series/series-ids.ts";
import { fetchFmcsaCensus } from "./fmcsa.ts";
import { type HttpOptions, requestJson } from "./http.ts";
import { fetchAgTransportTruckRates, fetchEiaWorkbook, fetchFredGraphCsv } from "./keyless.ts";

export const SYNC_SOURCES = ["eia", "fred", "bls", "ams", "fmcsa"] as const;
export type SyncSourceName = (typeof SYNC_SOURCES)[number];

export interface SyncRequest {
  baseUrl: string;
  apiKey: string;
  /** First date to ask for (YYYY-MM-DD). */
  since: string;
  today: string;
  /** ms epoch of the sync. */
  now: number;
  http: HttpOptions;
  /** The newest date already stored for a series, so a source can tell it has nothing newer. */
  newestStored(seriesId: string): Promise<string | undefined>;
}

/** One way to reach a source's figures: its keyed API, or the publication it serves to anyone. */
export interface SyncEndpoint {
  /** What was read, for the operator: "EIA API v2", "EIA weekly diesel workbook (no key)". */
  via: string;
  urlEnv: string;
  defaultUrl: string;
  /** The observations to store, or why there is nothing to fetch (what is stored is as new as the source). */
  fetch(request: SyncRequest): Promise<ParsedObservation[] | { upToDate: string }>;
}

export interface SyncSource {
  name: SyncSourceName;
  keyEnv: string;
  /** Used when `keyEnv` is set. */
  keyed?: SyncEndpoint;
  /** Used when it is not (and by a source whose key is only optional, which then sends it). */
  open: SyncEndpoint;
}

/**
 * Every page of an offset-paged API: asks for `pageSize` rows from offset 0 on, until a page comes
 * back empty or the offset passes the total the answer reports.
 */
async function allPages<Row>(
  pageSize: number,
  page: (offset: number) => Promise<{ rows: Row[]; total: number }>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const answer = await page(offset);
    rows.push(...answer.rows);
    if (answer.rows.length === 0 || offset + pageSize >= answer.total) return rows;
  }
}

const EIA_PAGE = 5000;

/** EIA API v2, weekly retail diesel (route petroleum/pri/gnd), every area the model uses, paged by offset. */
const eiaApi: SyncEndpoint = {
  via: "EIA API v2",
  urlEnv: "WAYBILL_EIA_URL",
  defaultUrl: "https://api.eia.gov",
  fetch: ({ baseUrl, apiKey, since, http }) =>
    allPages(EIA_PAGE, async (offset) => {
      const query = new URLSearchParams({
        api_key: apiKey,
        frequency: "weekly",
        "data[0]": "value",
        start: since,
        offset: String(offset),
        length: String(EIA_PAGE),
      });
      query.append("sort[0][column]", "period");
      query.append("sort[0][direction]", "asc");
      for (const area of DIESEL_AREAS) query.append("facets[series][]", dieselSeriesId(area));
      const body = await requestJson(`${baseUrl}/v2/petroleum/pri/gnd/data/?${query}`, {}, http, (b) => {
        const error = (b as { error?: unknown }).error;
        return error === undefined ? undefined : typeof error === "string" ? error : JSON.stringify(error);
      });
      return {
        rows: parseEiaJson(JSON.stringify(body)),
        total: Number((body as { response?: { total?: unknown } }).response?.total ?? 0),
      };
    }),
};

/** PCU336120336120 (BLS PPI, heavy duty truck manufacturing) carries ATRI's equipment cost between editions. */
const FRED_SERIES = ["WPU301", "PCU336120336120", "TSIFRGHT", "DCOILWTICO", "FEDFUNDS", "INDPRO"];
const FRED_PAGE = 100_000;

/** FRED `fred/series/observations` (file_type=json), one series at a time, paged by offset/limit. */
const fredApi: SyncEndpoint = {
  via: "FRED API",
  urlEnv: "WAYBILL_FRED_URL",
  defaultUrl: "https://api.stlouisfed.org",
  async fetch({ baseUrl, apiKey, since, http }) {
    const rows: ParsedObservation[] = [];
    for (const seriesId of FRED_SERIES) {
      const series = await allPages(FRED_PAGE, async (offset) => {
        const query = new URLSearchParams({
          series_id: seriesId,
          api_key: apiKey,
          file_type: "json",
          observation_start: since,
          offset: String(offset),
          limit: String(FRED_PAGE),
        });
        const body = (await requestJson(
          `${baseUrl}/fred/series/observations?${query}`,
          {},
          http,
          (b) => (b as { error_message?: string }).error_message,
        )) as {
          count?: number;
          observations?: { date: string; value: string }[];
        };
        if (!Array.isArray(body.observations)) throw new ImportFormatError(`FRED ${seriesId}: no 'observations' array`);
        return {
          rows: body.observations.map((o, i) => ({ ...o, where: `FRED ${seriesId} observations[${offset + i}]` })),
          total: body.count ?? 0,
        };
      });
      for (const { date, value, where } of series) {
        const observedOn = isoDate(date);
        if (!observedOn) throw new ImportFormatError(`${where}: '${date}' is not a date`);
        if (value !== ".") rows.push({ seriesId, observedOn, value: requireValue(value, where), where });
      }
    }
    return rows;
  },
};

/** Series per request: 50 on API v2 with a registration key, 25 on v1 without one. */
const BLS_BATCH = { v1: 25, v2: 50 } as const;

function blsPeriodDate(seriesId: string, year: string, period: string): string | undefined {
  if (/^M(0[1-9]|1[0-2])$/.test(period)) return `${year}-${period.slice(1)}-01`;
  if (period === "A01" && seriesId.startsWith("OEU")) return `${year}-05-01`;
  return undefined;
}

/** CES truck employment, then OEWS 53-3032 hourly median wage and employment, national and by state. */
const blsSeriesIds = (): string[] => {
  const fips = STATE_CODES.map((state) => stateInfo(state).fips);
  return [
    "CES4348400001",
    NATIONAL_TRUCK_DRIVER_WAGE_SERIES,
    ...fips.map(stateTruckDriverWageSeries),
    NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES,
    ...fips.map(stateTruckDriverEmploymentSeries),
  ];
};

/**
 * BLS Public Data API (POST timeseries/data): CES truck employment and OEWS 53-3032 by state. Version 2
 * with a registration key; version 1 without one (25 series a request, within its daily query limit:
 * the 105 series take five requests).
 */
const blsApi = (version: "v1" | "v2"): SyncEndpoint => ({
  via: version === "v2" ? "BLS Public Data API v2" : "BLS Public Data API v1 (no key)",
  urlEnv: "WAYBILL_BLS_URL",
  defaultUrl: "https://api.bls.gov",
  async fetch({ baseUrl, apiKey, since, today, http }) {
    const ids = blsSeriesIds();
    const rows: ParsedObservation[] = [];
    const batch = BLS_BATCH[version];
    for (let i = 0; i < ids.length; i += batch) {
      const payload = {
        seriesid: ids.slice(i, i + batch),
        startyear: since.slice(0, 4),
        endyear: today.slice(0, 4),
        ...(version === "v2" ? { registrationkey: apiKey } : {}),
      };
      const body = (await requestJson(
        `${baseUrl}/publicAPI/${version}/timeseries/data/`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload) },
        http,
        (b) => {
          const answer = b as { status?: string; message?: string[] };
          return answer.status === "REQUEST_SUCCEEDED"
            ? undefined
            : (answer.message ?? []).join("; ") || answer.status || "no status";
        },
      )) as { Results?: { series?: { seriesID: string; data: { year: string; period: string; value: string }[] }[] } };
      for (const series of body.Results?.series ?? []) {
        series.data.forEach((point, n) => {
          const observedOn = blsPeriodDate(series.seriesID, point.year, point.period);
          if (observedOn && point.value !== "-") {
            rows.push({
              seriesId: series.seriesID,
              observedOn,
              value: requireValue(point.value, `BLS ${series.seriesID} data[${n}]`),
              where: `BLS ${series.seriesID} data[${n}]`,
            });
          }
        });
      }
    }
    return rows;
  },
});

const mmddyyyy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/** USDA AMS MyMarketNews (MARS API v1.2), report 2375 (FVWTRK), basic auth with the key as user name. */
const amsApi: SyncEndpoint = {
  via: "USDA MyMarketNews API",
  urlEnv: "WAYBILL_AMS_URL",
  defaultUrl: "https://marsapi.ams.usda.gov",
  async fetch({ baseUrl, apiKey, since, today, http }) {
    const query = new URLSearchParams({
      q: `report_begin_date=${mmddyyyy(since)}:${mmddyyyy(today)}`,
      allSections: "true",
    });
    const body = await requestJson(
      `${baseUrl}/services/v1.2/reports/2375?${query}`,
      { headers: { Authorization: `Basic ${btoa(`${apiKey}:`)}` } },
      http,
      (b) =>
        (b as { message?: string; error?: string }).error ??
        (Array.isArray((b as { results?: unknown }).results) || Array.isArray(b)
          ? undefined
          : (b as { message?: string }).message),
    );
    // With allSections the answer is a list of sections; the detail section carries the lanes.
    const sections = Array.isArray(body) ? body : [body];
    const results = sections.flatMap((section) => ((section as { results?: unknown[] }).results ?? []) as unknown[]);
    return results.length === 0 ? [] : [...parseAmsJson(JSON.stringify({ results }))];
  },
};

/** FMCSA's carrier census on its open-data portal (SODA API, CSV pages); an app token is optional. */
const fmcsaPortal: SyncEndpoint = {
  via: "FMCSA open-data portal",
  urlEnv: "WAYBILL_FMCSA_URL",
  defaultUrl: "https://data.transportation.gov",
  fetch: async ({ baseUrl, apiKey, now, http, newestStored }) =>
    fetchFmcsaCensus({
      baseUrl,
      appToken: apiKey,
      now,
      http,
      storedCensus: await newestStored(fmcsaCensusSeries("CARRIERS", "US", "A")),
    }),
};

export const SOURCES: Record<SyncSourceName, SyncSource> = {
  eia: {
    name: "eia",
    keyEnv: "WAYBILL_EIA_API_KEY",
    keyed: eiaApi,
    open: {
      via: "EIA weekly diesel workbook (no key)",
      urlEnv: "WAYBILL_EIA_FILES_URL",
      defaultUrl: "https://www.eia.gov",
      fetch: ({ baseUrl, http }) => fetchEiaWorkbook(baseUrl, http),
    },
  },
  fred: {
    name: "fred",
    keyEnv: "WAYBILL_FRED_API_KEY",
    keyed: fredApi,
    open: {
      via: "FRED graph CSV (no key)",
      urlEnv: "WAYBILL_FRED_CSV_URL",
      defaultUrl: "https://fred.stlouisfed.org",
      fetch: ({ baseUrl, since, http }) => fetchFredGraphCsv(baseUrl, FRED_SERIES, since, http),
    },
  },
  bls: { name: "bls", keyEnv: "WAYBILL_BLS_API_KEY", keyed: blsApi("v2"), open: blsApi("v1") },
  ams: {
    name: "ams",
    keyEnv: "WAYBILL_AMS_API_KEY",
    keyed: amsApi,
    open: {
      via: "USDA AgTransport truck rates (no key)",
      urlEnv: "WAYBILL_AGTRANSPORT_URL",
      defaultUrl: "https://agtransport.usda.gov",
      fetch: ({ baseUrl, since, http }) => fetchAgTransportTruckRates(baseUrl, since, http),
    },
  },
  fmcsa: { name: "fmcsa", keyEnv: "WAYBILL_FMCSA_APP_TOKEN", open: fmcsaPortal },
};
