// Closed-loop load spread round robin over several base URLs (wrk drives one URL only), and the CPU
// time of the processes serving it, for the replica bench (test/bench/replicas.ts). Loopback only.
import { readdirSync, readFileSync } from "node:fs";
import { defined } from "../support/defined.ts";

export interface LoadResult {
  seconds: number;
  answered: number;
  /** Answers other than 200 (a refusal would mean the bench's limits are wrong). */
  otherStatus: number;
  /** Calls that got no HTTP answer at all. */
  failed: number;
  answeredPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** `connections` callers, each sending its next call as soon as the last one is answered, for `seconds`. */
/** Connection c calls with keys[c % keys.length]: several accounts' keys, as a shared service sees its callers. */
export async function closedLoop(options: {
  urls: string[];
  path: string;
  keys: string[];
  body: string;
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  for (const url of options.urls)
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`not a loopback base URL: ${url}`);
  const latencies: number[] = [];
  let otherStatus = 0;
  let failed = 0;
  let turn = 0;
  const start = performance.now();
  const end = start + options.seconds * 1000;
  const caller = async (_: unknown, connection: number) => {
    const headers = {
      "content-type": "application/json",
      authorization: `Bearer ${options.keys[connection % options.keys.length]}`,
    };
    while (performance.now() < end) {
      const url = options.urls[turn++ % options.urls.length] + options.path;
      const sentAt = performance.now();
      try {
        const response = await fetch(url, { method: "POST", headers, body: options.body });
        await response.arrayBuffer();
        if (response.status === 200) latencies.push(performance.now() - sentAt);
        else otherStatus += 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, caller));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies.length === 0
      ? Number.NaN
      : +defined(
          latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))],
          "the latency quantile",
        ).toFixed(2);
  return {
    seconds: +seconds.toFixed(2),
    answered: latencies.length,
    otherStatus,
    failed,
    answeredPerSecond: Math.round(latencies.length / seconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

/** Fields of /proc/PID/stat from the third on (state, ppid, …), or undefined once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** CPU so far in clock ticks: user + system, plus that of children it has reaped (fields 14–17); 0 once gone. */
function cpuTicks(pid: number): number {
  const fields = statFields(pid);
  return fields ? Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) : 0;
}

/** CPU ticks of some processes, summed; take it before and after a run and subtract. */
export const cpuTicksOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuTicks(pid), 0);

/**
 * CPU ticks of a process and its live children (PostgreSQL's postmaster and its backends, one per
 * connection). A backend that exits is reaped by the postmaster, whose count then includes it.
 */
export function cpuTicksOfTree(pid: number): number {
  const children = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => statFields(child)?.[1] === String(pid));
  return cpuTicksOf([pid, ...children]);
}
