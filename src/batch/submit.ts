import { BATCH_SUBMISSION_CALL } from "../metering/batch-submission.ts";
import type { Principal } from "../access/principal.ts";
import { utcDateOf } from "../dates.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import { rateLimitedError } from "../metering/window-status.ts";
import type { PipelineDeps } from "../pipeline/run-skill.ts";
import { log } from "../ops/log.ts";
import { beginJob, discardJob, queueJob, STORE_CHUNK, storeRows, unpricedLanes } from "./job-store.ts";
import type { Sheet } from "./sheet.ts";

/** The receipt of a submission names this operation of rate-lookup; each priced lane has its own rate-lookup receipt. */
const SUBMISSION_MODEL = "batch-1";

export interface Submitted {
  jobId: string;
  receiptId: string;
  total: number;
}

export interface SubmissionContext {
  requestId: string;
  now: number;
  started: number;
  /** The uploaded file's name (dashboard), shown in the list of past sheets. */
  fileName?: string;
}

/**
 * Refuse a sheet the month cannot hold before anything is priced (429, window month, with the
 * lanes it needs and the lanes left, counting the unpriced lanes of the account's other sheets),
 * else store it and issue its submission receipt. The caller wakes the runner.
 *
 * The rows go in a chunk per transaction, so calls served meanwhile never wait behind the whole
 * sheet; the job stays `storing` (not priced, not shown) until the last transaction issues the
 * receipt and queues it. If storing fails, the job goes with its rows; if the process stops
 * meanwhile, the runner discards the upload when it starts again (runner.ts, resume).
 */
export async function submitSheet(
  deps: PipelineDeps,
  principal: Principal,
  sheet: Sheet,
  context: SubmissionContext,
): Promise<Submitted> {
  const { now } = context;
  const { month } = await deps.meter.windows(principal, now);
  const left = Math.max(0, month.remaining - (await unpricedLanes(deps.db, principal.accountId)));
  const needed = sheet.rows.length;
  if (needed > left) {
    const refusal = rateLimitedError({ ...month, remaining: 0 }, now);
    throw new ApiError(
      "RATE_LIMITED",
      `The sheet holds ${needed} lanes and the account has ${left} answered calls left this month; nothing was priced.`,
      { ...refusal.extra, remaining: left, lanes_needed: needed, lanes_left: left },
      refusal.headers,
    );
  }
  const jobId = newId("job", now);
  const { accountId, keyId } = principal;
  const job = { id: jobId, accountId, keyId, fileName: context.fileName ?? null, sheet, now };
  await deps.committer.commit((tx) => beginJob(tx, job));
  try {
    for (let first = 0; first < needed; first += STORE_CHUNK) {
      const chunk = sheet.rows.slice(first, first + STORE_CHUNK);
      await deps.committer.commit((tx) => storeRows(tx, jobId, first + 1, chunk));
    }
    const receipt = await deps.committer.commit(async (tx) => {
      const appended = await deps.ledger.append(tx, {
        issuedAt: deps.clock.now(),
        skill: BATCH_SUBMISSION_CALL,
        principal,
        request: { format: sheet.format, columns: sheet.columns, lanes: needed },
        response: { job_id: jobId, total: needed },
        factorVersions: [],
        modelVersion: SUBMISSION_MODEL,
        asOf: utcDateOf(now),
        knownAt: now,
        usage: { requestId: context.requestId, latencyMs: performance.now() - context.started },
      });
      await queueJob(tx, jobId, appended.id);
      await deps.usage.recordAnswered(tx, principal.keyId, now);
      return appended;
    });
    return { jobId, receiptId: receipt.id, total: needed };
  } catch (error) {
    await deps.committer
      .commit((tx) => discardJob(tx, jobId))
      .catch((discardError: unknown) => log.failure("batch_discard_failed", discardError, { job_id: jobId }));
    throw error;
  }
}
