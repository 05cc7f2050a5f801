import type { Registry } from "prom-client";

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
export class SeriesCounter {
  readonly type = "counter";
  readonly aggregator = "sum";
  private readonly series: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

  /** The series of these label values, shown from its first count on; a counter without labels is shown from the start. */
  labels(labels: Record<string, string> = {}): CounterSeries {
    const series: Series = { value: 0, labels };
    const shown = this.series;
    let counted = Object.keys(labels).length === 0;
    if (counted) shown.push(series);
    return {
      inc(): void {
        if (!counted) {
          counted = true;
          shown.push(series);
        }
        series.value += 1;
      },
    };
  }

  /** The values prom-client's registry formats, as its Counter.get() gives them. */
  get() {
    return { help: this.help, name: this.name, type: this.type, values: this.series.map(({ value, labels }) => ({ value, labels })), aggregator: this.aggregator };
  }
}
