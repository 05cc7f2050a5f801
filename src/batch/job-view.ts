import type { BatchJob } from "./job-store.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A job's status as GET /v1/rates/batch/{job_id} and the dashboard show it. */
export function jobJson(job: BatchJob) {
  return {
    job_id: job.id,
    status: job.status,
    done: job.done,
    total: job.total,
    format: job.format,
    file_name: job.fileName,
    created_at: iso(job.createdAt),
    finished_at: iso(job.finishedAt),
    ...(job.failure !== null && { failure: job.failure }),
    status_url: statusUrl(job.id),
    results_url: `${statusUrl(job.id)}/results`,
  };
}

/** Where API clients submit bid sheets. */
export const BATCH_PATH = "/v1/rates/batch";

export const statusUrl = (jobId: string) => `${BATCH_PATH}/${jobId}`;
