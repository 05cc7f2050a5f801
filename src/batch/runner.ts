import type { Principal } from "../access/principal.ts";
import { ApiError } from "../errors.ts";
import type { Admission } from "../metering/meter.ts";
import { log } from "../ops/log.ts";
import { answerAdmitted, type PipelineDeps } from "../pipeline/run-skill.ts";
import { validateInput } from "../pipeline/validate.ts";
import type { AnySkill } from "../skills/types.ts";
import { nextUnfinishedJob, pendingRows, RowAlreadySettled, setStatus, settleRow, type BatchJob } from "./job-store.ts";
import { laneInput } from "./lane-input.ts";
import { pricedLane, refusedLane, type LaneOutcome } from "./outcome.ts";

/**
 * Lanes priced per turn: their writes share one group transaction, and between two turns the
 * event loop serves other calls (docs/batch.md, "Pricing a sheet").
 */
const LANES_PER_TURN = 25;

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

  constructor(
    private readonly deps: PipelineDeps,
    private readonly skill: AnySkill,
  ) {}

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
    while (!this.stopped) {
      const rows = await pendingRows(this.deps.db, job.id, LANES_PER_TURN);
      if (rows.length === 0) {
        await committer.commit((tx) => setStatus(tx, job.id, "done", clock.now()));
        return;
      }
      this.deps.refreshCaches(); // a revoke or tier change since the last turn is in force for this one
      const grant = this.deps.keys.byKeyId(job.keyId);
      if (!grant || grant.revoked) {
        const why = "The key that submitted the sheet was revoked; the rows not priced yet were left unpriced.";
        await committer.commit((tx) => setStatus(tx, job.id, "failed", clock.now(), why));
        return;
      }
      await Promise.all(rows.map((row) => this.priceRow(job, grant.principal, row.row, row.cells)));
      await new Promise((resolve) => setImmediate(resolve));
    }
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
