import { eq, gt, sql } from "drizzle-orm";
import { accounts, observations, settings } from "../db/schema.ts";
import { appendEvent, type Writer } from "./log.ts";

/** The highest observation row id already announced: imports append rows, so anything above it is new. */
const WATERMARK = "events_observations_seen";
/** A `data.updated` event names at most this many series; the count covers them all. */
const MAX_SERIES_LISTED = 100;

export interface DataUpdate {
  observationsAdded: number;
  series: { series_id: string; added: number; latest_date: string }[];
  importIds: string[];
}

const readWatermark = (tx: Writer): number | undefined => {
  const value = tx.select({ value: settings.value }).from(settings).where(eq(settings.key, WATERMARK)).get()?.value;
  return value === undefined ? undefined : Number(value);
};

const writeWatermark = (tx: Writer, value: number) =>
  tx
    .insert(settings)
    .values({ key: WATERMARK, value: String(value) })
    .onConflictDoUpdate({ target: settings.key, set: { value: String(value) } })
    .run();

/**
 * Inside a transaction: if observations were added since the last call (by this process, the CLI's
 * `data import`, a sync, or while the server was down), append one `data.updated` event to every
 * account and move the watermark. The first call on a database only sets the watermark: the data
 * that was already there is not news.
 */
export function recordDataUpdates(tx: Writer, now: number): DataUpdate | undefined {
  const highest =
    tx
      .select({ id: sql<number | null>`max(${observations.id})` })
      .from(observations)
      .get()?.id ?? 0;
  const seen = readWatermark(tx);
  if (seen !== undefined && highest <= seen) return undefined;
  writeWatermark(tx, highest);
  if (seen === undefined) return undefined;

  const added = tx
    .select({
      seriesId: observations.seriesId,
      added: sql<number>`count(*)`,
      latestDate: sql<string>`max(${observations.observedOn})`,
      importIds: sql<string>`group_concat(distinct ${observations.importId})`,
    })
    .from(observations)
    .where(gt(observations.id, seen))
    .groupBy(observations.seriesId)
    .orderBy(observations.seriesId)
    .all();
  const update: DataUpdate = {
    observationsAdded: added.reduce((sum, row) => sum + row.added, 0),
    series: added.slice(0, MAX_SERIES_LISTED).map((row) => ({ series_id: row.seriesId, added: row.added, latest_date: row.latestDate })),
    importIds: [...new Set(added.flatMap((row) => row.importIds.split(",")))].sort(),
  };
  const payload = {
    observations_added: update.observationsAdded,
    series_count: added.length,
    series: update.series,
    import_ids: update.importIds,
  };
  for (const account of tx.select({ id: accounts.id }).from(accounts).all()) {
    appendEvent(tx, { accountId: account.id, type: "data.updated", payload, at: now });
  }
  return update;
}
