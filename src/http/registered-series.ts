import type { Registry } from "prom-client";

/**
 * A metric of the per-call paths that prom-client's registry shows as one of its own (the same
 * lines, in the same order). The caller looks a series up once and keeps it; a labelled series is
 * listed from its first use, as prom-client lists it, and a metric without labels from the start.
 */
export abstract class RegisteredSeries<S extends { labels: Record<string, string> }> {
  readonly aggregator = "sum";
  protected readonly series: S[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

  /** Starts keeping `series`; the function returned lists it, the first time it is called. */
  protected keep(series: S): () => void {
    const listed = this.series;
    let shown = Object.keys(series.labels).length === 0;
    if (shown) listed.push(series);
    return () => {
      if (shown) return;
      shown = true;
      listed.push(series);
    };
  }
}
