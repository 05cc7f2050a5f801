import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { SeriesFreshness } from "../reference/freshness.ts";

/**
 * Prometheus metrics of one server: requests by route and status, latency, process memory and CPU,
 * and per reference series its data age and whether it is overdue (read when /metrics is scraped).
 */
export function createMetrics(freshness: () => SeriesFreshness[] = () => []) {
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
  // Registered gauges are read through the registry; nothing else holds them.
  new Gauge({
    name: "waybill_data_age_days",
    help: "Days from each reference series' newest observation to today.",
    labelNames: ["series", "family"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of freshness()) this.set({ series: s.seriesId, family: s.family }, s.ageDays);
    },
  });
  new Gauge({
    name: "waybill_data_overdue",
    help: "1 when a reference series' next figure is past its usual publication delay, else 0.",
    labelNames: ["series", "family"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of freshness()) this.set({ series: s.seriesId, family: s.family }, s.overdue ? 1 : 0);
    },
  });
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
