import { count, eq, gt, max, sql } from "drizzle-orm";
import { distinctList } from "../db/sql-functions.ts";
import { first } from "../db/transaction.ts";
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

const readWatermark = async (tx: Writer): Promise<number | undefined> => {
  const { settings } = tx.t;
  const value = (await first(tx.select({ value: settings.value }).from(settings).where(eq(settings.key, WATERMARK))))
    ?.value;
  return value === undefined ? undefined : Number(value);
};

const writeWatermark = (tx: Writer, value: number) =>
  tx
    .insert(tx.t.settings)
    .values({ key: WATERMARK, value: String(value) })
    .onConflictDoUpdate({ target: tx.t.settings.key, set: { value: String(value) } });

/**
 * Inside a transaction: if observations were added since the last call (by this process, the CLI's
 * `data import`, a sync, or while the server was down), append one `data.updated` event to every
 * account and move the watermark. The first call on a database only sets the watermark: the data
 * that was already there is not news.
 */
export async function recordDataUpdates(tx: Writer, now: number): Promise<DataUpdate | undefined> {
  const { accounts, observations } = tx.t;
  const highest = (await first(tx.select({ id: max(observations.id) }).from(observations)))?.id ?? 0;
  const seen = await readWatermark(tx);
  if (seen !== undefined && highest <= seen) return undefined;
  await writeWatermark(tx, highest);
  if (seen === undefined) return undefined;

  const added = await tx
    .select({
      seriesId: observations.seriesId,
      added: count(),
      latestDate: sql<string>`max(${observations.observedOn})`,
      importIds: distinctList(tx, observations.importId),
    })
    .from(observations)
    .where(gt(observations.id, seen))
    .groupBy(observations.seriesId)
    .orderBy(observations.seriesId);
  const update: DataUpdate = {
    observationsAdded: added.reduce((sum, row) => sum + row.added, 0),
    series: added
      .slice(0, MAX_SERIES_LISTED)
      .map((row) => ({ series_id: row.seriesId, added: row.added, latest_date: row.latestDate })),
    importIds: [...new Set(added.flatMap((row) => row.importIds.split(",")))].sort(),
  };
  const payload = {
    observations_added: update.observationsAdded,
    series_count: added.length,
    series: update.series,
    import_ids: update.importIds,
  };
  for (const account of await tx.select({ id: accounts.id }).from(accounts)) {
    await appendEvent(tx, { accountId: account.id, type: "data.updated", payload, at: now });
  }
  return update;
}
