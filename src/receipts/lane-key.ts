import type { Db } from "../db/client.ts";

const normalizePlace = (place: string) => place.trim().toLowerCase();

/**
 * The lane a request names, as LANE_HISTORY matches it: origin and destination as typed, trimmed and
 * lower-cased, joined by a newline (which neither can hold after trimming of a place name). Null when
 * the request names no lane. Stored in receipts.lane so the report is one index range, not a scan.
 */
export function laneKey(origin: string, destination: string): string;
export function laneKey(origin: unknown, destination: unknown): string | null;
export function laneKey(origin: unknown, destination: unknown): string | null {
  if (typeof origin !== "string" || typeof destination !== "string") return null;
  return `${normalizePlace(origin)}\n${normalizePlace(destination)}`;
}

export function laneKeyOfRequest(request: unknown): string | null {
  const fields = (request ?? {}) as { origin?: unknown; destination?: unknown };
  return typeof request === "object" ? laneKey(fields.origin, fields.destination) : null;
}

const BACKFILLED = "receipts_lane_backfilled";

/** Once per database: fill receipts.lane for receipts written before the column existed. */
export function backfillLanes(db: Db): void {
  const sqlite = db.$client;
  if (sqlite.query("SELECT 1 FROM settings WHERE key = ?").get(BACKFILLED)) return;
  const rows = sqlite.prepare<{ seq: number; body: string }, [number]>(
    "SELECT seq, body FROM receipts WHERE seq > ? ORDER BY seq LIMIT 5000",
  );
  const update = sqlite.prepare("UPDATE receipts SET lane = ? WHERE seq = ?");
  sqlite
    .transaction(() => {
      for (let batch = rows.all(0), last = batch.at(-1); last; batch = rows.all(last.seq), last = batch.at(-1)) {
        for (const row of batch) {
          let request: unknown;
          try {
            request = (JSON.parse(row.body) as { request?: unknown }).request;
          } catch {
            continue; // a body that is not JSON is reported by receipts verify, not here
          }
          const lane = laneKeyOfRequest(request);
          if (lane !== null) update.run(lane, row.seq);
        }
      }
      sqlite.query("INSERT INTO settings (key, value) VALUES (?, '1')").run(BACKFILLED);
    })
    .immediate();
}
