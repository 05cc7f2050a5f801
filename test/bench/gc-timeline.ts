// Lines up the server's garbage collections with the slow requests of an open-loop run
// (test/bench/gc-timeline.sh runs both). Reads JavaScriptCore's GC log (BUN_JSC_logGC=1) with the
// clock lines of test/bench/clock-marks.ts in the same stream, and fixed-rate.ts's TRACE_FILE (due
// time, latency per request). Prints one JSON line: the collections of the server's main heap
// (the heap with the most of them), their pauses, and how many slow requests fell in a
// collection's shadow. Not a test: nothing is asserted (docs/performance.md, "Garbage collection").
// `bun test/bench/gc-timeline.ts SERVER_STDERR TRACE_CSV [SLOW_MS=10]`

import { defined } from "../support/defined.ts";

interface Collection {
  kind: string;
  heapMb: number;
  /** The last clock line before the collection started (Unix ms): it started within one mark interval after. */
  startedBy: number;
  pausesMs: number[];
  cycleMs: number;
}

/** clock-marks.ts writes one every this many ms. */
const MARK_EVERY_MS = 20;
/** A request is in a collection's shadow if it was due from one mark before it started until this long after it ended (the backlog it leaves). */
const SHADOW_AFTER_MS = 40;

const [logFile, traceFile, slowArg = "10"] = process.argv.slice(2);
if (!logFile || !traceFile) {
  console.error("usage: gc-timeline.ts SERVER_STDERR TRACE_CSV [SLOW_MS]");
  process.exit(2);
}
const slowMs = Number(slowArg);

function collectionsByHeap(log: string): Map<string, Collection[]> {
  const byHeap = new Map<string, Collection[]>();
  const open = new Map<string, Collection>();
  let clock = Number.NaN;
  for (const [, clockMs, gcHeap, gcText] of log.matchAll(/clock (\d+)|\[GC<(0x[0-9a-f]+)>: ([^\]]*)\]/g)) {
    if (clockMs) {
      clock = Number(clockMs);
      continue;
    }
    // Not a clock line, so the GC alternative matched: both of its groups are set.
    const heap = defined(gcHeap, "the GC line's heap");
    const text = defined(gcText, "the GC line's text");
    const [, heapKb, kind] = /START M (\d+)kb => (\w+)/.exec(text) ?? [];
    if (kind !== undefined)
      open.set(heap, {
        kind,
        heapMb: Number(heapKb) / 1024,
        startedBy: clock,
        pausesMs: [],
        cycleMs: 0,
      });
    const collection = open.get(heap);
    if (!collection) continue;
    for (const pause of text.matchAll(/\bp=([\d.]+)ms/g)) collection.pausesMs.push(Number(pause[1]));
    const end = /cycle ([\d.]+)ms END/.exec(text);
    if (end) {
      collection.cycleMs = Number(end[1]);
      open.delete(heap);
      byHeap.set(heap, [...(byHeap.get(heap) ?? []), collection]);
    }
  }
  return byHeap;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : defined(sorted[Math.floor(sorted.length / 2)], "the median");
};

const trace = (await Bun.file(traceFile).text())
  .trim()
  .split("\n")
  .map((line) => line.split(",").map(Number) as [number, number]);
const from = defined(trace[0], "trace[0]")[0];
const to = defined(trace.at(-1), "the last of trace")[0];
const [mainHeap = []] = [...collectionsByHeap(await Bun.file(logFile).text()).values()].sort(
  (a, b) => b.length - a.length,
);
const during = mainHeap.filter(
  (c) => Number.isFinite(c.startedBy) && c.startedBy >= from - MARK_EVERY_MS && c.startedBy <= to,
);
const shadows = during.map(
  (c) => [c.startedBy - MARK_EVERY_MS, c.startedBy + MARK_EVERY_MS + c.cycleMs + SHADOW_AFTER_MS] as const,
);
const inShadow = (due: number) => shadows.some(([start, end]) => due >= start && due <= end);
const slow = trace.filter(([, latency]) => latency > slowMs);
const eden = during.filter((c) => c.kind === "EdenCollection");
const full = during.filter((c) => c.kind !== "EdenCollection");

console.log(
  JSON.stringify({
    requests: trace.length,
    seconds: round((to - from) / 1000),
    collections: { eden: eden.length, full: full.length },
    eden_pauses_ms: {
      median_total: round(median(eden.map((c) => sum(c.pausesMs)))),
      longest: round(Math.max(0, ...eden.flatMap((c) => c.pausesMs))),
    },
    full_collections: full.map((c) => ({
      heap_mb: round(c.heapMb),
      pauses_ms: round(sum(c.pausesMs)),
      longest_ms: round(Math.max(...c.pausesMs)),
      cycle_ms: round(c.cycleMs),
    })),
    slow_ms: slowMs,
    slow_requests: slow.length,
    slow_in_gc_shadow: slow.filter(([due]) => inShadow(due)).length,
    // Shadows may overlap; this is their summed length over the run's.
    gc_shadow_share_of_run: +(sum(shadows.map(([start, end]) => end - start)) / Math.max(1, to - from)).toFixed(3),
  }),
);
