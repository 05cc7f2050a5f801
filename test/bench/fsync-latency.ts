// The disk's own fsync latency, the part of an answered call's wait no server change can remove:
// writes a group-commit batch's worth of WAL (13 pages, 53 KB, the size of a batch of two answers)
// into a file it keeps overwriting from the start once it reaches 16 MiB (as the WAL is reused after
// each restart), fdatasyncs after each, and prints the distribution of the fdatasync alone as one
// JSON line. Then the same while the file only grows (a WAL written past its old end: the file's
// size changes too, which the sync must also make durable). Not a test: nothing is asserted.
// `bun test/bench/fsync-latency.ts DIR [SYNCS=2000]` (DIR on the disk the database is on)
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { defined } from "../support/defined.ts";

const [dir, countArg = "2000"] = process.argv.slice(2);
if (!dir) throw new Error("usage: fsync-latency.ts DIR [SYNCS]");
const syncs = Number(countArg);
const BATCH_BYTES = 13 * 4096;
const REUSED_BYTES = 16 * 1024 * 1024;

/** fdatasync times (ms) after each of `syncs` batch-sized writes; `wrapAt` bytes, or never, before writing from the start again. */
function measure(wrapAt: number): number[] {
  const file = join(defined(dir, "dir"), `fsync-latency-${process.pid}.bin`);
  const fd = openSync(file, "w");
  const batch = Buffer.alloc(BATCH_BYTES, 0x5a);
  const times: number[] = [];
  let offset = 0;
  try {
    for (let i = 0; i < syncs; i++) {
      writeSync(fd, batch, 0, BATCH_BYTES, offset);
      offset = offset + BATCH_BYTES >= wrapAt ? 0 : offset + BATCH_BYTES;
      const started = performance.now();
      fdatasyncSync(fd);
      times.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return times.sort((a, b) => a - b);
}

const quantiles = (sorted: number[]) => {
  const at = (q: number) =>
    +defined(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))], "the quantile").toFixed(2);
  return {
    p50_ms: at(0.5),
    p90_ms: at(0.9),
    p99_ms: at(0.99),
    max_ms: at(1),
    over_10ms: sorted.filter((ms) => ms > 10).length,
  };
};

console.log(
  JSON.stringify({
    syncs,
    batch_bytes: BATCH_BYTES,
    reused: quantiles(measure(REUSED_BYTES)),
    growing: quantiles(measure(Number.POSITIVE_INFINITY)),
  }),
);
