import { and, asc, desc, eq, gt, inArray, isNull, lte, ne, sql } from "drizzle-orm";
import type { batchJobs } from "../db/schema.ts";
import type { Store } from "../db/client.ts";
import { inTransaction } from "../db/transaction.ts";
import type { LaneOutcome } from "./outcome.ts";
import type { SheetRow } from "./priced-sheet.ts";
import type { Sheet } from "./sheet.ts";

export type BatchJob = typeof batchJobs.$inferSelect;
export type JobStatus = BatchJob["status"];

/** A row written twice: the first write stands, and the second one's transaction rolls back (nothing counted twice). */
export class RowAlreadySettled extends Error {}

/**
 * Rows per INSERT and per transaction while a sheet is stored: four bound values each, well under
 * SQLite's and PostgreSQL's limits on parameters, and a short enough write that calls served
 * meanwhile wait for no more than one chunk (docs/batch.md, "Storing a sheet").
 */
export const STORE_CHUNK = 250;

/**
 * Until its submission's receipt is issued a job is `storing`: its rows go in chunk by chunk, and
 * it is neither priced nor shown, but its lanes already count as promised to the month.
 */
const PROMISED: JobStatus[] = ["storing", "queued", "running"];

export interface NewJob {
  id: string;
  accountId: string;
  keyId: string;
  fileName: string | null;
  sheet: Sheet;
  now: number;
}

/** The job, `storing`, without rows yet; its receipt id is set when it is queued (queueJob). */
export async function beginJob(tx: Store, job: NewJob): Promise<void> {
  const { batchJobs } = tx.t;
  await tx.insert(batchJobs).values({
    id: job.id,
    accountId: job.accountId,
    keyId: job.keyId,
    receiptId: "",
    format: job.sheet.format,
    fileName: job.fileName,
    columns: job.sheet.columns,
    status: "storing",
    total: job.sheet.rows.length,
    createdAt: job.now,
  });
}

/** Rows `first`, `first + 1`, … of a storing job (rows are numbered from 1, as in the sheet). */
export async function storeRows(tx: Store, jobId: string, first: number, cells: Record<string, unknown>[]) {
  const { batchRows } = tx.t;
  await tx.insert(batchRows).values(cells.map((row, index) => ({ jobId, row: first + index, cells: row })));
}

/**
 * The stored job becomes `queued` with its submission's receipt, in that receipt's transaction.
 * Throws if the job is no longer storing (discarded meanwhile), so that transaction rolls back.
 */
export async function queueJob(tx: Store, jobId: string, receiptId: string): Promise<void> {
  const { batchJobs } = tx.t;
  const [queued] = await tx
    .update(batchJobs)
    .set({ status: "queued", receiptId })
    .where(and(eq(batchJobs.id, jobId), eq(batchJobs.status, "storing")))
    .returning({ id: batchJobs.id });
  if (!queued) throw new Error(`${jobId} was discarded before all its rows were stored`);
}

/** A job whose rows could not all be stored, with the rows it has (they go with it). */
export async function discardJob(tx: Store, jobId: string): Promise<void> {
  const { batchJobs } = tx.t;
  await tx.delete(batchJobs).where(and(eq(batchJobs.id, jobId), eq(batchJobs.status, "storing")));
}

/**
 * Uploads a stop interrupted while their rows were being stored (created at or before `before`):
 * their clients never heard 202 and no receipt names them, so they go with their rows.
 */
export async function discardInterruptedUploads(store: Store, before: number): Promise<number> {
  const { batchJobs } = store.t;
  const discarded = await inTransaction(store, (tx) =>
    tx
      .delete(batchJobs)
      .where(and(eq(batchJobs.status, "storing"), lte(batchJobs.createdAt, before)))
      .returning({ id: batchJobs.id }),
  );
  return discarded.length;
}

/**
 * One row's outcome and the job's progress, inside the transaction that also holds the lane's
 * receipt and month count: a row already settled throws, so that transaction rolls back and a
 * resumed job can never price or count a row twice.
 */
export async function settleRow(tx: Store, jobId: string, row: number, outcome: LaneOutcome): Promise<void> {
  const { batchJobs, batchRows } = tx.t;
  const [settled] = await tx
    .update(batchRows)
    .set({ outcome: outcome as unknown as Record<string, unknown> })
    .where(and(eq(batchRows.jobId, jobId), eq(batchRows.row, row), isNull(batchRows.outcome)))
    .returning({ row: batchRows.row });
  if (!settled) throw new RowAlreadySettled(`row ${row} of ${jobId} is already settled`);
  await tx
    .update(batchJobs)
    .set({ done: sql`${batchJobs.done} + 1` })
    .where(eq(batchJobs.id, jobId));
}

/** An account's job, or undefined (another account's job is not found). */
export async function findJob(store: Store, accountId: string, jobId: string): Promise<BatchJob | undefined> {
  const { batchJobs } = store.t;
  const [job] = await store
    .select()
    .from(batchJobs)
    .where(and(eq(batchJobs.id, jobId), eq(batchJobs.accountId, accountId), ne(batchJobs.status, "storing")));
  return job;
}

/** An account's sheets, newest first. */
export function listJobs(store: Store, accountId: string, limit = 50): Promise<BatchJob[]> {
  const { batchJobs } = store.t;
  return store
    .select()
    .from(batchJobs)
    .where(and(eq(batchJobs.accountId, accountId), ne(batchJobs.status, "storing")))
    .orderBy(desc(batchJobs.createdAt), desc(batchJobs.id))
    .limit(limit);
}

/** The oldest job still to price, queued or interrupted while running. */
export async function nextUnfinishedJob(store: Store): Promise<BatchJob | undefined> {
  const { batchJobs } = store.t;
  const [job] = await store
    .select()
    .from(batchJobs)
    .where(inArray(batchJobs.status, ["queued", "running"]))
    .orderBy(asc(batchJobs.createdAt), asc(batchJobs.id))
    .limit(1);
  return job;
}

/** Up to `limit` rows after `afterRow` still unsettled, in the sheet's order. */
export function pendingRows(store: Store, jobId: string, afterRow: number, limit: number) {
  const { batchRows } = store.t;
  return store
    .select({ row: batchRows.row, cells: batchRows.cells })
    .from(batchRows)
    .where(and(eq(batchRows.jobId, jobId), gt(batchRows.row, afterRow), isNull(batchRows.outcome)))
    .orderBy(asc(batchRows.row))
    .limit(limit);
}

/** Every row after `afterRow`, up to `limit`, with its outcome: the results, read page by page. */
export async function rowsAfter(store: Store, jobId: string, afterRow: number, limit: number): Promise<SheetRow[]> {
  const { batchRows } = store.t;
  const rows = await store
    .select({ row: batchRows.row, cells: batchRows.cells, outcome: batchRows.outcome })
    .from(batchRows)
    .where(and(eq(batchRows.jobId, jobId), gt(batchRows.row, afterRow)))
    .orderBy(asc(batchRows.row))
    .limit(limit);
  return rows.map((row) => ({ ...row, outcome: row.outcome as unknown as LaneOutcome | null }));
}

export async function setStatus(
  store: Store,
  jobId: string,
  status: JobStatus,
  at: number,
  failure: string | null = null,
): Promise<void> {
  const { batchJobs } = store.t;
  const finished = status === "done" || status === "failed";
  await store
    .update(batchJobs)
    .set({ status, failure, ...(finished && { finishedAt: at }) })
    .where(eq(batchJobs.id, jobId));
}

/** Lanes of the account's unfinished sheets (being stored, queued or running) not priced yet: already promised to the month. */
export async function unpricedLanes(store: Store, accountId: string): Promise<number> {
  const { batchJobs } = store.t;
  const [row] = await store
    .select({ left: sql<number>`coalesce(sum(${batchJobs.total} - ${batchJobs.done}), 0)` })
    .from(batchJobs)
    .where(and(eq(batchJobs.accountId, accountId), inArray(batchJobs.status, PROMISED)));
  return Number(row?.left ?? 0);
}
