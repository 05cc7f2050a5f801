import type { Store } from "../db/client.ts";
import { isCalendarDate } from "../dates.ts";
import { syncData } from "../reference/sync/run.ts";
import { SYNC_SOURCES, type SyncSourceName } from "../reference/sync/sources.ts";
import { UsageError, type CommandResult } from "./result.ts";

export interface DataSyncOptions {
  source?: string;
  since?: string;
  json?: boolean;
  env: Record<string, string | undefined>;
  now?: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** `waybill data sync [--source eia|fred|bls|ams|fmcsa] [--since DATE]`: one line per source; exit 1 if any source failed. */
export async function dataSync(db: Store, options: DataSyncOptions): Promise<CommandResult> {
  if (options.source !== undefined && !(SYNC_SOURCES as readonly string[]).includes(options.source)) {
    throw new UsageError(`unknown source '${options.source}'; use one of ${SYNC_SOURCES.join(", ")}`);
  }
  if (options.since !== undefined && !isCalendarDate(options.since))
    throw new UsageError(`--since must be a date (YYYY-MM-DD), not '${options.since}'`);
  const outcomes = await syncData(db, {
    sources: options.source ? [options.source as SyncSourceName] : undefined,
    since: options.since,
    env: options.env,
    now: options.now ?? Date.now(),
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
  });
  const failed = outcomes.some((o) => o.status === "failed");
  return {
    exitCode: failed ? 1 : 0,
    output: options.json ? JSON.stringify({ sources: outcomes }) : outcomes.map((o) => o.message).join("\n"),
  };
}
