import type { Store } from "../../db/client.ts";
import type { DataEvents } from "../data-events.ts";
import { syncData, type SourceOutcome } from "./run.ts";

export interface SyncScheduleOptions {
  db: Store;
  everyMs: number;
  env: Record<string, string | undefined>;
  now: () => number;
  events: DataEvents;
  /** Called with each run's outcomes (the server logs them). */
  report?: (outcomes: SourceOutcome[]) => void;
  fetch?: typeof fetch;
  /** First retry after a failed run; doubles per failure, never beyond `everyMs`. */
  retryMs?: number;
}

/**
 * Runs `data sync` in the server on a timer, off the request path: requests never wait for it, and a
 * run's only synchronous work is one short transaction per source. After a run where any source
 * failed, the next comes sooner (retryMs, doubling per consecutive failure, capped at everyMs).
 * Returns stop().
 */
export function startSyncSchedule(options: SyncScheduleOptions): () => void {
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const retryMs = options.retryMs ?? 5 * 60_000;

  const run = async () => {
    let outcomes: SourceOutcome[] = [];
    try {
      outcomes = await syncData(options.db, {
        env: options.env,
        now: options.now(),
        fetch: options.fetch,
        events: options.events,
      });
      options.report?.(outcomes);
    } catch (error) {
      console.error(`data sync failed: ${(error as Error).message}`);
      outcomes = [
        { source: "eia", status: "failed", added: 0, skipped: 0, importId: null, message: "sync run failed" },
      ];
    }
    failures = outcomes.some((o) => o.status === "failed") ? failures + 1 : 0;
    if (stopped) return;
    const delay = failures === 0 ? options.everyMs : Math.min(options.everyMs, retryMs * 2 ** (failures - 1));
    timer = setTimeout(run, delay);
    timer.unref?.();
  };
  timer = setTimeout(run, 0);
  timer.unref?.();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
