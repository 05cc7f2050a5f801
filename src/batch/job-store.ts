import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { batchJobs } from "../db/schema.ts";
import type { Store } from "../db/client.ts";
import type { LaneOutcome } from "./outcome.ts";
import type { SheetRow } from "./priced-sheet.ts";
import type { Sheet } from "./sheet.ts";

export type BatchJob = typeof batchJobs.$inferSelect;
export type JobStatus = BatchJob["status"];

/** A row written twice: the first write stands, and the second one's transaction rolls back (nothing counted twice). */
export class RowAlreadySettled extends Error {}

/** Rows per INSERT: four bound values each, well under SQLite's and PostgreSQL's limits on parameters. */
const INSERT_CHUNK = 1_000;

export interface NewJob {
  id: string;
  accountId: string;
  keyId: string;
  receiptId: string;
  fileName: string | null;
  sheet: Sheet;
  now: number;
}

/** The job and all its rows, inside the submission's transaction. */
export async function insertJob(tx: Store, job: NewJob): Promise<void> {
  const { batchJobs, batchRows } = tx.t;
  await tx.insert(batchJobs).values({
    id: job.id,
    accountId: job.accountId,
    keyId: job.keyId,
    receiptId: job.receiptId,
    format: job.sheet.format,
    fileName: job.fileName,
    columns: job.sheet.columns,
    status: "queued",
    total: job.sheet.rows.length,
    createdAt: job.now,
  });
  const rows = job.sheet.rows.map((cells, index) => ({ jobId: job.id, row: index + 1, cells }));
  for (let start = 0; start < rows.length; start += INSERT_CHUNK)
    await tx.insert(batchRows).values(rows.slice(start, start + INSERT_CHUNK));
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
    .where(and(eq(batchJobs.id, jobId), eq(batchJobs.accountId, accountId)));
  return job;
}

/** An account's sheets, newest first. */
export function listJobs(store: Store, accountId: string, limit = 50): Promise<BatchJob[]> {
  const { batchJobs } = store.t;
  return store
    .select()
    .from(batchJobs)
    .where(eq(batchJobs.accountId, accountId))
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

/** Up to `limit` rows still unsettled, in the sheet's order. */
export function pendingRows(store: Store, jobId: string, limit: number) {
  const { batchRows } = store.t;
  return store
    .select({ row: batchRows.row, cells: batchRows.cells })
    .from(batchRows)
    .where(and(eq(batchRows.jobId, jobId), isNull(batchRows.outcome)))
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

/** Lanes of the account's unfinished sheets not priced yet: already promised to the month. */
export async function unpricedLanes(store: Store, accountId: string): Promise<number> {
  const { batchJobs } = store.t;
  const [row] = await store
    .select({ left: sql<number>`coalesce(sum(${batchJobs.total} - ${batchJobs.done}), 0)` })
    .from(batchJobs)
    .where(and(eq(batchJobs.accountId, accountId), inArray(batchJobs.status, ["queued", "running"])));
  return Number(row?.left ?? 0);
}
