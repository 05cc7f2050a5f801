import { RegisteredSeries } from "./registered-series.ts";

/** One labelled series of a counter, as prom-client keeps it. */
interface Series {
  value: number;
  labels: Record<string, string>;
}

/** What counting into one series takes. */
export interface CounterSeries {
  inc(): void;
}

/**
 * A Prometheus counter for the per-call paths, shown by prom-client's registry exactly as its own
 * Counter shows it (series in the order they were first counted). prom-client's inc() validates and
 * hashes the label object on every call; here a series is looked up once by the caller and counting
 * is one addition (docs/performance.md, "The append and the batch, leaner").
 */
export class SeriesCounter extends RegisteredSeries<Series> {
  readonly type = "counter";

  /** The series of these label values. */
  labels(labels: Record<string, string> = {}): CounterSeries {
    const series: Series = { value: 0, labels };
    const used = this.keep(series);
    return {
      inc(): void {
        used();
        series.value += 1;
      },
    };
  }

  /** The values prom-client's registry formats, as its Counter.get() gives them. */
  get() {
    return {
      help: this.help,
      name: this.name,
      type: this.type,
      values: this.series.map(({ value, labels }) => ({ value, labels })),
      aggregator: this.aggregator,
    };
  }
}
