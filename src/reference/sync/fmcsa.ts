/**
 * FMCSA's carrier census from its open-data portal (data.transportation.gov, a Socrata site): the
 * dataset "SMS Input – Motor Carrier Census Information" (`kjg3-diqy`), which carries the Company
 * Census File's columns. Read through the SODA API as CSV, only the columns the census import counts,
 * in pages of `$limit` rows ordered by `:id` so paging is stable, and handed page after page to the
 * census importer, which counts it like one file (docs/data-sources.md, "Sync").
 */
import { Readable } from "node:stream";
import type { ParsedObservation } from "../storage/admit.ts";
import { readCensus } from "../importers/census-import.ts";
import { CENSUS_COLUMNS } from "../importers/fmcsa-census.ts";
import { requestFailure, requestStream, SyncSourceError, type HttpOptions } from "./http.ts";

export const FMCSA_CENSUS_DATASET = "kjg3-diqy";
/** Rows per page: the most a SODA 2.0 endpoint returns for one request. */
export const FMCSA_PAGE_ROWS = 50_000;
/** Ten million rows: the census holds about two million; more means the server ignores `$offset`. */
const MAX_PAGES = 200;

/** SODA's JSON error body: `message` (with `code` or `errorCode`). */
const sodaError = (body: unknown) => {
  const { message, code, errorCode } = body as { message?: unknown; code?: unknown; errorCode?: unknown };
  if (typeof message !== "string") return undefined;
  const tag = typeof code === "string" ? code : typeof errorCode === "string" ? errorCode : undefined;
  return tag ? `${message} (${tag})` : message;
};

const isTransferError = (error: unknown) =>
  error instanceof Error &&
  (["TimeoutError", "AbortError"].includes(error.name) || typeof (error as { code?: unknown }).code === "string");

/** The day a `Last-Modified` header names (the dataset's last update), if it names one. */
function lastModifiedDay(response: Response): string | undefined {
  const header = response.headers.get("last-modified");
  const at = header ? Date.parse(header) : Number.NaN;
  return Number.isNaN(at) ? undefined : new Date(at).toISOString().slice(0, 10);
}

export interface FmcsaCensusRequest {
  baseUrl: string;
  /** Socrata app token (optional: without one the portal answers at a lower rate limit). */
  appToken: string;
  now: number;
  http: HttpOptions;
  /** The date of the newest census already stored: a dataset not modified since is not read again. */
  storedCensus: string | undefined;
}

/** The census answered with its first page and is no newer than the stored one: the rest is not read. */
class CensusUpToDate extends Error {}

/**
 * The whole census as aggregate observations, dated by the dataset's last update (else its newest
 * filing); or, when the dataset was last modified on or before the stored census's date, nothing
 * (about two million rows are not read again every few hours for a file published monthly).
 */
export async function fetchFmcsaCensus({
  baseUrl,
  appToken,
  now,
  http,
  storedCensus,
}: FmcsaCensusRequest): Promise<ParsedObservation[] | { upToDate: string }> {
  let snapshotDate: string | undefined;
  const page = async (index: number, rowsSoFar: number): Promise<Readable | undefined> => {
    if (index > 0 && rowsSoFar < index * FMCSA_PAGE_ROWS) return undefined; // the last page was short
    if (index >= MAX_PAGES)
      throw new SyncSourceError(
        `more than ${MAX_PAGES} pages of ${FMCSA_PAGE_ROWS} rows; does the server honour $offset?`,
      );
    const query = new URLSearchParams({
      $select: CENSUS_COLUMNS.map((column) => column.toLowerCase()).join(","),
      $order: ":id",
      $limit: String(FMCSA_PAGE_ROWS),
      $offset: String(index * FMCSA_PAGE_ROWS),
    });
    const response = await requestStream(
      `${baseUrl}/resource/${FMCSA_CENSUS_DATASET}.csv?${query}`,
      { headers: appToken ? { "X-App-Token": appToken } : {} },
      http,
      sodaError,
    );
    if (index === 0) {
      snapshotDate = lastModifiedDay(response);
      if (snapshotDate && storedCensus && snapshotDate <= storedCensus) {
        await response.body?.cancel();
        throw new CensusUpToDate();
      }
    }
    return Readable.fromWeb(response.body as unknown as import("node:stream/web").ReadableStream);
  };
  try {
    const reading = await readCensus(page, {
      name: `${FMCSA_CENSUS_DATASET}.csv`,
      givenDate: () => (snapshotDate ? { date: snapshotDate, from: "publisher" } : undefined),
      now,
    });
    return reading.observations;
  } catch (error) {
    if (error instanceof CensusUpToDate)
      return { upToDate: `the census was last modified on ${snapshotDate}, the stored one is of ${storedCensus}` };
    // A page's body cut off or timed out while it streamed is the source's failure, not the program's.
    if (isTransferError(error)) throw requestFailure(error, http.timeoutMs);
    throw error;
  }
}
