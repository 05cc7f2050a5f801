import { describe, expect, test } from "bun:test";
import { Histogram, Registry } from "prom-client";
import { BucketHistogram } from "../../src/http/bucket-histogram.ts";

const BOUNDS = [0.00005, 0.0001, 0.00025, 0.001, 0.1, 1];
// Below the first bound, on a bound, between bounds, past the last one, zero.
const VALUES = [0.00001, 0.0001, 0.0003, 0.02, 0.1, 7.5, 0, 0.000249];

describe("BucketHistogram", () => {
  test("the registry shows it exactly as prom-client's own Histogram: every line, in the same order", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const labelled = new Histogram({
      name: "t_stage_seconds",
      help: "Stages.",
      labelNames: ["stage"] as const,
      buckets: BOUNDS,
      registers: [theirs],
    });
    const plain = new Histogram({ name: "t_batch_writes", help: "Writes.", buckets: [1, 2, 4], registers: [theirs] });
    const untouched = new Histogram({
      name: "t_unused_seconds",
      help: "Never observed.",
      labelNames: ["route"] as const,
      buckets: BOUNDS,
      registers: [theirs],
    });
    const ourLabelled = new BucketHistogram("t_stage_seconds", "Stages.", BOUNDS, ours);
    const ourPlain = new BucketHistogram("t_batch_writes", "Writes.", [1, 2, 4], ours).labels();
    const ourUntouched = new BucketHistogram("t_unused_seconds", "Never observed.", BOUNDS, ours);
    const queued = ourLabelled.labels({ stage: "queued" });
    const sync = ourLabelled.labels({ stage: "sync" });
    ourUntouched.labels({ route: "/v1/x" }); // a series never observed is not shown
    void untouched;
    // "sync" is observed first, so it is shown first, whatever order the series were made in.
    for (const value of VALUES) {
      labelled.observe({ stage: "sync" }, value * 2);
      sync.observe(value * 2);
      labelled.observe({ stage: "queued" }, value);
      queued.observe(value);
      plain.observe(value * 3);
      ourPlain.observe(value * 3);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('t_stage_seconds_bucket{le="0.00025",stage="sync"} 3');
    expect(text).toContain('t_stage_seconds_bucket{le="+Inf",stage="queued"} 8');
    expect(text).not.toContain("t_unused_seconds_bucket");
  });

  test("a histogram without labels is shown from the start, with zero counts, as prom-client shows it", async () => {
    const theirs = new Registry();
    const ours = new Registry();
    new Histogram({ name: "t_empty", help: "Empty.", buckets: [1, 2], registers: [theirs] });
    new BucketHistogram("t_empty", "Empty.", [1, 2], ours).labels();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  test("a value that is not a finite number is refused and not counted", async () => {
    const registry = new Registry();
    const series = new BucketHistogram("t_refused", "Refused.", [1], registry).labels({ stage: "writes" });
    expect(() => series.observe(Number.NaN)).toThrow(TypeError);
    expect(() => series.observe(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(await registry.metrics()).not.toContain("t_refused_count");
    series.observe(0.5);
    expect(await registry.metrics()).toContain('t_refused_count{stage="writes"} 1');
  });
});
