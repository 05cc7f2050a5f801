import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";

/** Where the group committer stands: transactions and writes committed since start. */
export type GroupCommitStats = () => { batches: number; writes: number };

/** A Prometheus counter that reads its total from elsewhere when scraped. */
function counterReading(registry: Registry, name: string, help: string, read: () => number): void {
  let counted = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const total = read();
      this.inc(total - counted);
      counted = total;
    },
  });
}

/**
 * Prometheus metrics of one server: requests by route and status, latency, process memory and CPU,
 * and how many writes each group-commit transaction carried (writes / batches).
 */
export function createMetrics(groupCommit: GroupCommitStats) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "waybill_" });
  const requests = new Counter({
    name: "waybill_http_requests_total",
    help: "HTTP requests answered, by route pattern and status code.",
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
  counterReading(registry, "waybill_group_commit_batches_total", "Write transactions the group committer has committed.", () => groupCommit().batches);
  counterReading(registry, "waybill_group_commit_writes_total", "Answered calls' writes committed inside those transactions.", () => groupCommit().writes);
  return {
    observe(method: string, route: string, status: number, seconds: number): void {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ route }, seconds);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
