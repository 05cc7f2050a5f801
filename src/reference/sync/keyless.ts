/**
 * The official publications `waybill data sync` reads when no API key is configured: the same
 * figures the keyed APIs serve, as each agency publishes them for anyone (docs/data-sources.md,
 * "Sync without keys"). A configured key switches its source to the keyed API (sources.ts).
 */
import type { ParsedObservation } from "../storage/admit.ts";
import { parseAmsJson } from "../importers/ams.ts";
import { ImportFormatError } from "../importers/common.ts";
import { parseEiaWorkbook } from "../importers/eia-workbook.ts";
import { parseFred } from "../importers/fred.ts";
import { textLines } from "../importers/source-lines.ts";
import { requestStream, type HttpOptions } from "./http.ts";

/** EIA's Gasoline and Diesel Fuel Update, full weekly diesel history: every PADD and sub-PADD series. */
export const EIA_DIESEL_WORKBOOK_PATH = "/petroleum/gasdiesel/xls/psw18vwall.xls";

/** The weekly diesel workbook, whole (about 1 MB), read by the same parser as `data import eia FILE.xls`. */
export async function fetchEiaWorkbook(baseUrl: string, http: HttpOptions): Promise<ParsedObservation[]> {
  const response = await requestStream(`${baseUrl}${EIA_DIESEL_WORKBOOK_PATH}`, {}, http, () => undefined);
  return parseEiaWorkbook(new Uint8Array(await response.arrayBuffer()));
}

/**
 * FRED's graph download, one series a request: `fredgraph.csv?id=SERIES&cosd=START`, answered as
 * `observation_date,SERIES` rows ("." or an empty cell for no value), the format `data import fred` reads.
 */
export async function fetchFredGraphCsv(
  baseUrl: string,
  seriesIds: readonly string[],
  since: string,
  http: HttpOptions,
): Promise<ParsedObservation[]> {
  const rows: ParsedObservation[] = [];
  for (const seriesId of seriesIds) {
    const query = new URLSearchParams({ id: seriesId, cosd: since });
    const response = await requestStream(`${baseUrl}/graph/fredgraph.csv?${query}`, {}, http, () => undefined);
    const text = await response.text();
    try {
      for (const row of parseFred(textLines(text)))
        rows.push({ ...row, where: `FRED graph CSV ${seriesId} ${row.where}` });
    } catch (error) {
      if (error instanceof ImportFormatError)
        throw new ImportFormatError(`FRED graph CSV ${seriesId}: ${error.message}`);
      throw error;
    }
  }
  return rows;
}

/** USDA AgTransport's open dataset of the FVWTRK report (refrigerated truck rates by lane, week ending Tuesday). */
export const AMS_TRUCK_RATES_DATASET = "acar-e3r8";
const AGTRANSPORT_PAGE_ROWS = 50_000;
const AGTRANSPORT_MAX_PAGES = 20;

/**
 * The FVWTRK lanes from `since` on, from AgTransport's SODA API as JSON (`date`, `origin`,
 * `destination`, `weeklow`, `weekhigh`), paged by `$offset`; no key is needed (an app token is not sent).
 */
export async function fetchAgTransportTruckRates(
  baseUrl: string,
  since: string,
  http: HttpOptions,
): Promise<ParsedObservation[]> {
  const rows: unknown[] = [];
  for (let page = 0; page < AGTRANSPORT_MAX_PAGES; page++) {
    const query = new URLSearchParams({
      $where: `date >= '${since}T00:00:00.000'`,
      $order: "date,:id",
      $limit: String(AGTRANSPORT_PAGE_ROWS),
      $offset: String(page * AGTRANSPORT_PAGE_ROWS),
    });
    const response = await requestStream(
      `${baseUrl}/resource/${AMS_TRUCK_RATES_DATASET}.json?${query}`,
      {},
      http,
      (body) => (body as { message?: string }).message,
    );
    const batch = (await response.json().catch(() => undefined)) as unknown;
    if (!Array.isArray(batch)) throw new ImportFormatError(`AgTransport ${AMS_TRUCK_RATES_DATASET}: not a JSON array`);
    rows.push(...batch);
    if (batch.length < AGTRANSPORT_PAGE_ROWS) break;
  }
  return rows.length === 0 ? [] : [...parseAmsJson(JSON.stringify(rows))];
}
