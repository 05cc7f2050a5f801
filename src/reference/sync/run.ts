import { ulid } from "ulid";
import { and, eq, max, notInArray } from "drizzle-orm";
import type { Store } from "../../db/client.ts";
import { first } from "../../db/transaction.ts";
import { appendObservations, RefusedDataError, sha256Hex } from "../storage/append.ts";
import type { DataEvents } from "../storage/data-events.ts";
import { ImportFormatError } from "../importers/common.ts";
import { redact, SyncSourceError } from "./http.ts";
import { SOURCES, SYNC_SOURCES, type SyncSourceName } from "./sources.ts";

export interface SyncOptions {
  /** Which sources; all of them when omitted. */
  sources?: readonly SyncSourceName[];
  /** First date to ask for; by default 400 days back, so a year of revisions is seen again. */
  since?: string;
  env: Record<string, string | undefined>;
  now: number;
  fetch?: typeof fetch;
  timeoutMs?: number;
  events?: DataEvents;
}

export interface SourceOutcome {
  source: SyncSourceName;
  status: "added" | "unchanged" | "skipped" | "failed";
  added: number;
  skipped: number;
  importId: string | null;
  /** Which publication was read: a keyed API, or the one served without a key. */
  via: string;
  /** One line for the operator. */
  message: string;
}

const DAY_MS = 86_400_000;
export const DEFAULT_SYNC_LOOKBACK_DAYS = 400;

/**
 * Fetches new figures from every configured source, one after another. Each source's batch passes
 * the door and is stored as one import (all or nothing); a source that fails or has no key is
 * reported and the others go on. Figures already stored are skipped, a changed value is added as a
 * newer version of the same observation.
 */
/** The newest date stored for a series, retracted imports left out. */
const newestStored = (db: Store) => async (seriesId: string) => {
  const { observations: o, dataRetractions: r } = db.t;
  const retracted = db.select({ importId: r.importId }).from(r);
  const row = await first(
    db
      .select({ newest: max(o.observedOn) })
      .from(o)
      .where(and(eq(o.seriesId, seriesId), notInArray(o.importId, retracted))),
  );
  return row?.newest ?? undefined;
};

export async function syncData(db: Store, options: SyncOptions): Promise<SourceOutcome[]> {
  const today = new Date(options.now).toISOString().slice(0, 10);
  const since = options.since ?? new Date(options.now - DEFAULT_SYNC_LOOKBACK_DAYS * DAY_MS).toISOString().slice(0, 10);
  const http = { fetch: options.fetch ?? fetch, timeoutMs: options.timeoutMs ?? 30_000 };
  const outcomes: SourceOutcome[] = [];
  for (const name of options.sources ?? SYNC_SOURCES) {
    const source = SOURCES[name];
    const outcome = (
      status: SourceOutcome["status"],
      message: string,
      extra: Partial<SourceOutcome> = {},
    ): SourceOutcome => ({
      source: name,
      status,
      added: 0,
      skipped: 0,
      importId: null,
      via: "",
      ...extra,
      message: `${name}: ${message}${extra.via ? ` [${extra.via}]` : ""}`,
    });
    const apiKey = options.env[source.keyEnv] || "";
    const endpoint = apiKey && source.keyed ? source.keyed : source.open;
    const via = { via: endpoint.via };
    const baseUrl = (options.env[endpoint.urlEnv] || endpoint.defaultUrl).replace(/\/+$/, "");
    try {
      const fetched = await endpoint.fetch({
        baseUrl,
        apiKey,
        since,
        today,
        now: options.now,
        http,
        newestStored: newestStored(db),
      });
      if ("upToDate" in fetched) {
        outcomes.push(outcome("unchanged", `nothing new (${fetched.upToDate})`, via));
        continue;
      }
      const rows = fetched;
      const importId = `imp_${ulid(options.now)}`;
      const fileName = `${endpoint.via}: ${redact(baseUrl)} since ${since}`;
      const stored = await appendObservations(
        db,
        { importId, source: `${name}-sync`, fileName, fileSha256: sha256Hex(JSON.stringify(rows)) },
        rows,
        options.now,
      );
      if (stored.added > 0) {
        options.events?.publish({ importId, source: `${name}-sync`, added: stored.added, at: options.now });
        outcomes.push(
          outcome("added", `${stored.added} new observations as ${importId} (${stored.skipped} already stored)`, {
            ...via,
            added: stored.added,
            skipped: stored.skipped,
            importId,
          }),
        );
      } else
        outcomes.push(
          outcome("unchanged", `nothing new (${stored.skipped} already stored)`, { ...via, skipped: stored.skipped }),
        );
    } catch (error) {
      if (
        !(error instanceof SyncSourceError || error instanceof ImportFormatError || error instanceof RefusedDataError)
      )
        throw error;
      outcomes.push(outcome("failed", `failed, ${error.message}; nothing from ${name} was stored`, via));
    }
  }
  return outcomes;
}
