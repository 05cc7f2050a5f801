import type { Registry } from "prom-client";
import { RegisteredSeries } from "./registered-series.ts";

/** One labelled series of a histogram: a count per bucket (not cumulative), their sum and count. */
interface Series {
  labels: Record<string, string>;
  buckets: number[];
  sum: number;
  count: number;
}

/** What observing into one series takes. */
export interface HistogramSeries {
  observe(value: number): void;
}

/**
 * A Prometheus histogram for the hot paths (every answered call, every group-commit batch), shown by
 * prom-client's registry exactly as its own Histogram shows it (the same lines, in the same order).
 * prom-client's observe() validates and hashes the labels and turns the bucket bound into a property
 * name on every call, several µs each with the cold caches of a call at low concurrency
 * (docs/performance.md, "The append and the batch, leaner"); here a series is looked up once, and an
 * observation is a loop over the bounds and three additions.
 */
export class BucketHistogram extends RegisteredSeries<Series> {
  readonly type = "histogram";

  constructor(
    name: string,
    help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    super(name, help, registry);
  }

  /** The series of these label values. */
  labels(labels: Record<string, string> = {}): HistogramSeries {
    const series: Series = { labels, buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
    const used = this.keep(series);
    const bounds = this.bounds;
    return {
      observe(value: number): void {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        used();
        for (let i = 0; i < bounds.length; i++) {
          if (value <= bounds[i]!) {
            series.buckets[i]! += 1;
            break;
          }
        }
        series.sum += value;
        series.count += 1;
      },
    };
  }

  /** The values prom-client's registry formats, as its Histogram.get() gives them. */
  get() {
    const name = this.name;
    const values = this.series.flatMap((series) => {
      let cumulative = 0;
      const buckets = this.bounds.map((bound, i) => {
        cumulative += series.buckets[i]!;
        return {
          labels: { le: bound },
          sharedLabels: series.labels,
          value: cumulative,
          metricName: `${name}_bucket`,
          exemplar: null,
        };
      });
      return [
        ...buckets,
        {
          labels: { le: "+Inf" },
          sharedLabels: series.labels,
          value: series.count,
          metricName: `${name}_bucket`,
          exemplar: null,
        },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${name}_sum`, exemplar: undefined },
        {
          labels: {},
          sharedLabels: series.labels,
          value: series.count,
          metricName: `${name}_count`,
          exemplar: undefined,
        },
      ];
    });
    return { name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
