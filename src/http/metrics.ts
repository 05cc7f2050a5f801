import { Counter, Gauge, Registry } from "prom-client";
import { BucketHistogram, type HistogramSeries } from "./bucket-histogram.ts";
import { SeriesCounter, type CounterSeries } from "./series-counter.ts";
import type { BatchStages } from "../db/group-commit.ts";
import { processMetrics } from "../ops/process-metrics.ts";
import type { SeriesFreshness } from "../reference/series/freshness.ts";

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
  const requests = new SeriesCounter(
    "waybill_http_requests_total",
    "HTTP requests answered, by route pattern and status code (499: the client went away first).",
    registry,
  );
  const requestsOf = new Map<string, CounterSeries>();
  const latency = new BucketHistogram(
    "waybill_http_request_duration_seconds",
    "Time from receiving a request to handing its response to the socket.",
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registry,
  );
  const latencyOf = new Map<string, HistogramSeries>();
  const answers = new SeriesCounter(
    "waybill_skill_answers_total",
    "Skill calls answered (2xx, receipt committed), by skill.",
    registry,
  );
  const answersOf = new Map<string, CounterSeries>();
  const refusals = new Counter({
    name: "waybill_skill_refusals_total",
    help: "Skill calls refused after authentication, by skill and error code.",
    labelNames: ["skill", "reason"] as const,
    registers: [registry],
  });
  const receipts = new SeriesCounter(
    "waybill_receipts_appended_total",
    "Signed receipts appended to the chain.",
    registry,
  ).labels();
  const batchSize = new BucketHistogram(
    "waybill_group_commit_batch_writes",
    "Writes (answers) per group-commit transaction.",
    [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registry,
  ).labels();
  const batchLatency = new BucketHistogram(
    "waybill_group_commit_duration_seconds",
    "Time to run and commit (fsync) one group-commit transaction.",
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registry,
  ).labels();
  const batchStages = new BucketHistogram(
    "waybill_group_commit_stage_seconds",
    "Where an answer's commit time goes (docs/performance.md): queued (per write, until its batch starts), writes (the batch's rows, tiles and checkpoint signature), commit (the COMMIT statement, with any WAL checkpoint), sync (until the batch is on disk), held (per WAL restart, how long batches waited for it).",
    [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registry,
  );
  const stage = {
    queued: batchStages.labels({ stage: "queued" }),
    writes: batchStages.labels({ stage: "writes" }),
    commit: batchStages.labels({ stage: "commit" }),
    sync: batchStages.labels({ stage: "sync" }),
    held: batchStages.labels({ stage: "held" }),
  };
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
      seriesOf(requestsOf, `${method} ${route} ${status}`, () =>
        requests.labels({ method, route, status: String(status) }),
      ).inc();
      seriesOf(latencyOf, route, () => latency.labels({ route })).observe(seconds);
    },
    answered(skill: string): void {
      seriesOf(answersOf, skill, () => answers.labels({ skill })).inc();
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
      for (const waited of stages.queuedMs) stage.queued.observe(waited / 1000);
      stage.writes.observe(stages.writesMs / 1000);
      stage.commit.observe(stages.commitMs / 1000);
      stage.sync.observe(stages.syncMs / 1000);
    },
    walRestartHeld(ms: number): void {
      stage.held.observe(ms / 1000);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The series kept under `key`, made the first time it is asked for (route patterns, skills, statuses: few). */
function seriesOf<S>(known: Map<string, S>, key: string, make: () => S): S {
  let series = known.get(key);
  if (!series) {
    series = make();
    known.set(key, series);
  }
  return series;
}
