import { authorize } from "../access/authorize.ts";
import type { Principal } from "../access/principal.ts";
import { errors } from "../errors.ts";
import type { RateLimitHeaders } from "../metering/window-status.ts";
import type { PipelineDeps } from "../pipeline/run-skill.ts";
import type { AnySkill } from "../skills/types.ts";
import { findJob, rowsAfter, type BatchJob } from "./job-store.ts";
import type { SheetRow } from "./priced-sheet.ts";
import type { BatchRunner } from "./runner.ts";
import type { Sheet } from "./sheet.ts";
import { submitSheet, type SubmissionContext, type Submitted } from "./submit.ts";

/**
 * What every transport does with bid sheets (REST, MCP, the dashboard): rate-lookup's scope and
 * tier, one count toward the minute per call, and the caller's own jobs only.
 */
export class BatchService {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly runner: BatchRunner,
    private readonly skill: AnySkill,
  ) {}

  /** scope → tier → minute: throws the error table's refusal; else the minute's headers. */
  async admit(principal: Principal, now: number): Promise<RateLimitHeaders> {
    authorize(principal, this.skill);
    return this.deps.meter.countMinute(principal, now);
  }

  async submit(principal: Principal, sheet: Sheet, context: SubmissionContext): Promise<Submitted> {
    const submitted = await submitSheet(this.deps, principal, sheet, context);
    this.runner.wake();
    return submitted;
  }

  /** The caller's own job; another account's is not found. */
  async job(principal: Principal, jobId: string): Promise<BatchJob> {
    const job = await findJob(this.deps.db, principal.accountId, jobId);
    if (!job) throw errors.notFound(`No bid sheet job '${jobId}' for this account.`);
    return job;
  }

  /** Every row of the caller's job, in the sheet's order. */
  async rows(principal: Principal, jobId: string): Promise<{ job: BatchJob; rows: SheetRow[] }> {
    const job = await this.job(principal, jobId);
    return { job, rows: await rowsAfter(this.deps.db, job.id, 0, job.total) };
  }
}
