import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { BatchStages } from "../../db/group-commit.ts";
import { processMetrics } from "../../ops/process-metrics.ts";
import type { SeriesFreshness } from "../../reference/series/freshness.ts";

/** Newest observation date per series, for the data-age gauge. */
export type SeriesDates = () => readonly { seriesId: string; latest: string }[];

/**
 * Prometheus metrics of one server (text format 0.0.4, checked with `promtool check metrics`):
 * HTTP requests and latency; Prometheus' standard `process_*` names, so stock dashboards find
 * them; and the domain: answers and refusals by skill and reason, receipts appended, group-commit
 * batch size and latency, and how old each reference series' newest figure is.
 */
export function createMetrics(
  options: { seriesDates?: SeriesDates; freshness?: () => SeriesFreshness[]; now?: () => number } = {},
) {
  const registry = new Registry();
  const now = options.now ?? Date.now;
  processMetrics(registry);
  const requests = new Counter({
    name: "waybill_http_requests_total",
    help: "HTTP requests answered, by route pattern and status code (499: the client went away first).",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "waybill_http_request_duration_seconds",
    help: "Time from receiving a request to handing its response to the socket.",
    labelNames: ["route"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const answers = new Counter({
    name: "waybill_skill_answers_total",
    help: "Skill calls answered (2xx, receipt committed), by skill.",
    labelNames: ["skill"] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: "waybill_skill_refusals_total",
    help: "Skill calls refused after authentication, by skill and error code.",
    labelNames: ["skill", "reason"] as const,
    registers: [registry],
  });
  const receipts = new Counter({
    name: "waybill_receipts_appended_total",
    help: "Signed receipts appended to the chain.",
    registers: [registry],
  });
  const batchSize = new Histogram({
    name: "waybill_group_commit_batch_writes",
    help: "Writes (answers) per group-commit transaction.",
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  const batchLatency = new Histogram({
    name: "waybill_group_commit_duration_seconds",
    help: "Time to run and commit (fsync) one group-commit transaction.",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const stage = new Histogram({
    name: "waybill_group_commit_stage_seconds",
    help: "Where an answer's commit time goes (docs/performance.md): queued (per write, until its batch starts), writes (the batch's rows, tiles and checkpoint signature), commit (the COMMIT statement, with any WAL checkpoint), sync (until the batch is on disk), held (per WAL restart, how long batches waited for it).",
    labelNames: ["stage"] as const,
    buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const seriesDates = options.seriesDates;
  if (seriesDates) {
    new Gauge({
      name: "waybill_reference_data_age_seconds",
      help: "Time between now and the newest observation (its date, 00:00 UTC) of each reference series.",
      labelNames: ["series"] as const,
      registers: [registry],
      collect() {
        this.reset();
        const today = now();
        for (const { seriesId, latest } of seriesDates()) {
          this.set({ series: seriesId }, Math.floor((today - Date.parse(`${latest}T00:00:00Z`)) / 1000));
        }
      },
    });
  }
  const freshness = options.freshness;
  if (freshness) {
    new Gauge({
      name: "waybill_reference_data_overdue",
      help: "1 when a reference series' next figure is past its usual publication delay, else 0.",
      labelNames: ["series", "family"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const s of freshness()) this.set({ series: s.seriesId, family: s.family }, s.overdue ? 1 : 0);
      },
    });
  }
  return {
    observe(method: string, route: string, status: number, seconds: number): void {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ route }, seconds);
    },
    answered(skill: string): void {
      answers.inc({ skill });
      receipts.inc();
    },
    refused(skill: string, reason: string): void {
      refusals.inc({ skill, reason });
    },
    groupCommitted(writes: number, seconds: number): void {
      batchSize.observe(writes);
      batchLatency.observe(seconds);
    },
    groupCommitStages(stages: BatchStages): void {
      for (const waited of stages.queuedMs) stage.observe({ stage: "queued" }, waited / 1000);
      stage.observe({ stage: "writes" }, stages.writesMs / 1000);
      stage.observe({ stage: "commit" }, stages.commitMs / 1000);
      stage.observe({ stage: "sync" }, stages.syncMs / 1000);
    },
    walRestartHeld(ms: number): void {
      stage.observe({ stage: "held" }, ms / 1000);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
