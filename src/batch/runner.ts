import type { Principal } from "../access/principal.ts";
import { ApiError } from "../errors.ts";
import type { Admission } from "../metering/meter.ts";
import { log } from "../ops/log.ts";
import { answerAdmitted, type PipelineDeps } from "../pipeline/run-skill.ts";
import { validateInput } from "../pipeline/validate.ts";
import type { AnySkill } from "../skills/types.ts";
import {
  discardInterruptedUploads,
  nextUnfinishedJob,
  pendingRows,
  RowAlreadySettled,
  setStatus,
  settleRow,
  type BatchJob,
} from "./job-store.ts";
import { laneInput } from "./lane-input.ts";
import { pricedLane, refusedLane, type LaneOutcome } from "./outcome.ts";

/**
 * A sheet is priced in slices, and between two slices the event loop serves other calls
 * (docs/batch.md, "Pricing a sheet"). A slice's lanes are computed in one go, then their writes
 * share one group transaction: at most this many lanes, which bounds that transaction…
 */
const MAX_LANES_PER_SLICE = 10;

/** …and no more lanes are started once the slice has computed for this long (lanes on routes not cached yet cost more). */
const SLICE_BUDGET_MS = 4;

/** After a failure that is not a lane's own (the database went away), the job is tried again this much later. */
const RETRY_AFTER_MS = 5_000;

/**
 * Prices bid sheets in the background, one job at a time, oldest first. Each lane goes the way of
 * an answered rate-lookup call under the key grant that submitted the sheet: one month slot, the
 * handler, then the month count, the receipt and the row's outcome in one transaction, which a
 * resumed job cannot repeat (job-store.ts, settleRow). The minute window is not touched: the
 * submission was counted there once.
 */
export class BatchRunner {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  /** When this runner was made: an upload still storing from before then was interrupted by a stop. */
  private readonly startedAt: number;

  constructor(
    private readonly deps: PipelineDeps,
    private readonly skill: AnySkill,
  ) {
    this.startedAt = deps.clock.now();
  }

  /** On start: drop the uploads a stop interrupted (submit.ts), then price what is unfinished. */
  async resume(): Promise<void> {
    try {
      const discarded = await discardInterruptedUploads(this.deps.db, this.startedAt);
      if (discarded > 0) log.info("batch_uploads_discarded", { jobs: discarded });
    } catch (error) {
      log.failure("batch_discard_failed", error); // what is left stays storing: never priced, never shown
    }
    this.wake();
  }

  /** Price whatever is unfinished: on start (a job a restart interrupted resumes) and after each submission. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => {
        log.failure("batch_run_failed", error);
        if (!this.stopped) this.retry = setTimeout(() => this.wake(), RETRY_AFTER_MS);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves once nothing is being priced (tests and the benchmark wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Finish the lanes of the current turn and stop; what is left resumes at the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.running;
  }

  private async drain(): Promise<void> {
    for (
      let job = await nextUnfinishedJob(this.deps.db);
      job && !this.stopped;
      job = await nextUnfinishedJob(this.deps.db)
    )
      await this.runJob(job);
  }

  private async runJob(job: BatchJob): Promise<void> {
    const { committer, clock } = this.deps;
    if (job.status === "queued") await committer.commit((tx) => setStatus(tx, job.id, "running", clock.now()));
    // One slice may still be on its way to the disk while the next one computes; its rows are those up to `after`.
    let previous: Promise<void> = Promise.resolve();
    let after = 0;
    try {
      while (!this.stopped) {
        const rows = await pendingRows(this.deps.db, job.id, after, MAX_LANES_PER_SLICE);
        if (rows.length === 0) {
          await previous;
          await committer.commit((tx) => setStatus(tx, job.id, "done", clock.now()));
          return;
        }
        this.deps.refreshCaches(); // a revoke or tier change since the last slice is in force for this one
        const grant = this.deps.keys.byKeyId(job.keyId);
        if (!grant || grant.revoked) {
          await previous;
          const why = "The key that submitted the sheet was revoked; the rows not priced yet were left unpriced.";
          await committer.commit((tx) => setStatus(tx, job.id, "failed", clock.now(), why));
          return;
        }
        const slice = this.startSlice(job, grant.principal, rows);
        await previous;
        previous = slice.settled;
        after = slice.lastRow;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await previous;
    }
  }

  /**
   * Start the rows' lanes in order until the slice's budget is spent (each computes before its first
   * await); `settled` resolves once their writes are durable. A row not started is left for the next slice.
   */
  private startSlice(job: BatchJob, principal: Principal, rows: { row: number; cells: Record<string, unknown> }[]) {
    const sliceStarted = performance.now();
    const pricing: Promise<void>[] = [];
    let lastRow = 0;
    for (const { row, cells } of rows) {
      pricing.push(this.priceRow(job, principal, row, cells));
      lastRow = row;
      if (performance.now() - sliceStarted >= SLICE_BUDGET_MS) break;
    }
    const settled = Promise.all(pricing).then(() => undefined);
    settled.catch(() => undefined); // awaited by runJob a turn later: not an unhandled rejection meanwhile
    return { settled, lastRow };
  }

  /** One lane: priced with its receipt, or refused with the error table's code; its place in the sheet is kept either way. */
  private async priceRow(job: BatchJob, principal: Principal, row: number, cells: Record<string, unknown>) {
    const started = performance.now();
    const now = this.deps.clock.now();
    let admission: Admission | undefined;
    try {
      const input = validateInput(this.skill.input, laneInput(cells, job.format === "json"), "body");
      admission = await this.deps.meter.reserveMonth(principal, now);
      await answerAdmitted(this.deps, this.skill, {
        principal,
        admission,
        input,
        now,
        started,
        requestId: `${job.id}/${row}`,
        alsoInAnswerTransaction: (tx, _principal, body) =>
          settleRow(tx, job.id, row, pricedLane(body, body.receipt_id as string)),
      });
      this.deps.metrics?.answered(this.skill.name);
    } catch (error) {
      admission?.release();
      if (error instanceof RowAlreadySettled) return;
      // Anything outside the error table is logged and the row says INTERNAL_ERROR; if the database
      // itself is away, settling fails too, the row stays unpriced and the job is tried again later.
      if (!(error instanceof ApiError)) log.failure("batch_lane_failed", error, { request_id: `${job.id}/${row}` });
      await this.settle(job.id, row, refusedLane(error));
    }
  }

  private async settle(jobId: string, row: number, outcome: LaneOutcome): Promise<void> {
    try {
      await this.deps.committer.commit((tx) => settleRow(tx, jobId, row, outcome));
    } catch (error) {
      if (!(error instanceof RowAlreadySettled)) throw error;
    }
  }
}
