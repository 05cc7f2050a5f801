import { unlessAnotherReplicaIs } from "../../db/advisory-lock.ts";
import type { Store } from "../../db/client.ts";
import type { DataEvents } from "../storage/data-events.ts";
import { nextCheckAfter, SYNC_CADENCE } from "./cadence.ts";
import { syncData, type SourceOutcome } from "./run.ts";
import { SYNC_SOURCES, type SyncSourceName } from "./sources.ts";

/** Held by the replica that is syncing; the others skip that turn (their figures come from it). */
const SYNC_LOCK = 0x57a7_5c0c;

export interface SyncScheduleOptions {
  db: Store;
  env: Record<string, string | undefined>;
  now: () => number;
  events: DataEvents;
  /** One line for the log. */
  log: (line: string) => void;
  fetch?: typeof fetch;
  /** The first run, this long after start (every source); 5 s by default. */
  firstRunMs?: number;
  /** Check every source this often instead of on its publication cadence (`--sync-every`). */
  everyMs?: number;
  /** First retry after a source failed; doubles per consecutive failure, never past its next regular check. */
  retryMs?: number;
}

interface SourceState {
  dueAt: number;
  failures: number;
}

const describeTime = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Runs `data sync` inside the server, off the request path: a first run shortly after start, then
 * each source on its own publication cadence (cadence.ts). A source that fails (no network, an API
 * error) is tried again sooner, backing off, and logged once per streak of failures, so a server
 * without internet logs one line per source and goes on answering from what it has. Returns stop().
 */
export function startSyncSchedule(options: SyncScheduleOptions): () => void {
  const retryMs = options.retryMs ?? 5 * 60_000;
  const start = options.now() + (options.firstRunMs ?? 5_000);
  const states = new Map<SyncSourceName, SourceState>(
    SYNC_SOURCES.map((name) => [name, { dueAt: start, failures: 0 }]),
  );
  const regularCheck = (name: SyncSourceName, now: number) =>
    options.everyMs ? now + options.everyMs : nextCheckAfter(SYNC_CADENCE[name], now);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const settle = (outcome: SourceOutcome, now: number) => {
    const state = states.get(outcome.source);
    if (!state) return;
    const regular = regularCheck(outcome.source, now);
    if (outcome.status !== "failed") {
      options.log(`data sync ${outcome.message}`);
      state.failures = 0;
      state.dueAt = regular;
      return;
    }
    state.failures += 1;
    state.dueAt = Math.min(regular, now + retryMs * 2 ** (state.failures - 1));
    if (state.failures === 1)
      options.log(
        `data sync ${outcome.message}; answering from the figures already stored, trying again at ${describeTime(state.dueAt)} and backing off`,
      );
  };

  const arm = () => {
    if (stopped) return;
    const next = Math.min(...[...states.values()].map((s) => s.dueAt));
    timer = setTimeout(run, Math.max(0, next - options.now()));
    timer.unref?.();
  };

  const run = async () => {
    const now = options.now();
    const due = SYNC_SOURCES.filter((name) => (states.get(name)?.dueAt ?? Infinity) <= now);
    try {
      const outcomes = await unlessAnotherReplicaIs(options.db, SYNC_LOCK, () =>
        syncData(options.db, { sources: due, env: options.env, now, fetch: options.fetch, events: options.events }),
      );
      if (outcomes === undefined)
        for (const name of due) (states.get(name) as SourceState).dueAt = regularCheck(name, now);
      else for (const outcome of outcomes) settle(outcome, options.now());
    } catch (error) {
      // Not a source's failure (those are outcomes): the database itself. Try every due source again later.
      options.log(`data sync stopped: ${(error as Error).message}`);
      for (const name of due) (states.get(name) as SourceState).dueAt = options.now() + retryMs;
    }
    arm();
  };

  arm();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
