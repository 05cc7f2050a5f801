import { readdirSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Counter, Gauge, type Registry } from "prom-client";

const START_TIME_SECONDS = Math.round(Date.now() / 1000 - process.uptime());

function openFileDescriptors(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length - 1; // minus the one readdir itself holds
  } catch {
    return undefined;
  }
}

function maxFileDescriptors(): number | undefined {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : undefined;
  } catch {
    return undefined;
  }
}

function virtualMemoryBytes(): number | undefined {
  try {
    const kib = /VmSize:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    return kib ? Number(kib) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** One per process, started by the first scrape (a timer every 10 ms that never keeps the process alive). */
let loopDelay: ReturnType<typeof monitorEventLoopDelay> | undefined;

/**
 * The process metrics every Prometheus client library exports, under their standard names
 * (process_cpu_seconds_total, process_resident_memory_bytes, …), read from the process and /proc.
 * prom-client's Node.js collector is not used: under Bun some of its heap figures are not the
 * process's (6.5 GB of "heap" at 130 MB RSS), and its handle gauges end in `_total`, which
 * `promtool check metrics` rejects for a gauge.
 */
export function processMetrics(registry: Registry): void {
  const cpuCounter = (name: string, help: string, read: (usage: NodeJS.CpuUsage) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(process.cpuUsage()) / 1e6);
      },
    });
  cpuCounter("process_cpu_user_seconds_total", "Total user CPU time spent in seconds.", (u) => u.user);
  cpuCounter("process_cpu_system_seconds_total", "Total system CPU time spent in seconds.", (u) => u.system);
  cpuCounter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", (u) => u.user + u.system);
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  gauge("process_resident_memory_bytes", "Resident memory size in bytes.", () => process.memoryUsage.rss());
  gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", virtualMemoryBytes);
  gauge("process_heap_bytes", "JavaScript heap in use, in bytes.", () => process.memoryUsage().heapUsed);
  gauge(
    "process_start_time_seconds",
    "Start time of the process since unix epoch in seconds.",
    () => START_TIME_SECONDS,
  );
  gauge("process_open_fds", "Number of open file descriptors.", openFileDescriptors);
  gauge("process_max_fds", "Maximum number of open file descriptors.", maxFileDescriptors);
  // Four gauges, as prom-client names Node's event-loop lag: a "quantile" label is only for summaries.
  const delays = { p50: 50, p90: 90, p99: 99, max: 100 } as const;
  const readings = new Map<string, number>();
  for (const [name, percentile] of Object.entries(delays)) {
    new Gauge({
      name: `waybill_event_loop_delay_${name}_seconds`,
      help: `How late the event loop ran a ${LOOP_DELAY_RESOLUTION_MS} ms timer since the previous scrape, ${name === "max" ? "longest stall" : `${percentile}th percentile`} (garbage collection, synchronous work; docs/performance.md).`,
      registers: [registry],
      collect() {
        // The p50 gauge is collected first: it takes the readings of the whole window and starts the next.
        if (name === "p50") takeLoopDelays(readings, delays);
        const value = readings.get(name);
        if (value !== undefined) this.set(value);
      },
    });
  }
}

const LOOP_DELAY_RESOLUTION_MS = 10;

/** Read (and reset) the process's event-loop delay monitor, in seconds beyond the timer's own interval. */
function takeLoopDelays(readings: Map<string, number>, delays: Record<string, number>): void {
  readings.clear();
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
    loopDelay.enable();
    return;
  }
  if (loopDelay.count === 0) return;
  for (const [name, percentile] of Object.entries(delays)) {
    const nanoseconds = percentile === 100 ? loopDelay.max : loopDelay.percentile(percentile);
    readings.set(name, Math.max(0, nanoseconds / 1e9 - LOOP_DELAY_RESOLUTION_MS / 1000));
  }
  loopDelay.reset();
}
