import { t, type Static } from "elysia";
import type { Db } from "../db/client.ts";
import { errors } from "../http/errors.ts";
import type { OwnReceipt } from "./store.ts";

export const LANE_HISTORY_LIMIT = 500;
const DEFAULT_WINDOW_DAYS = 90;
const DAY_MS = 86_400_000;

export const LaneHistorySchema = t.Object({
  report_type: t.Literal("LANE_HISTORY"),
  lane: t.Object({ origin: t.String(), destination: t.String() }),
  from: t.String(),
  to: t.String(),
  receipts: t.Array(
    t.Object({
      receipt_id: t.String(),
      seq: t.Integer(),
      issued_at: t.String(),
      skill: t.String(),
      as_of: t.Union([t.String(), t.Null()]),
      model_version: t.Union([t.String(), t.Null()]),
      equipment: t.Union([t.String(), t.Null()]),
      rate_per_mile: t.Union([t.Number(), t.Null()]),
      total_cost: t.Union([t.Number(), t.Null()]),
      miles: t.Union([t.Number(), t.Null()]),
    }),
  ),
  count: t.Integer(),
  /** More receipts matched than LANE_HISTORY_LIMIT; narrow the date range. */
  truncated: t.Boolean(),
});
export type LaneHistory = Static<typeof LaneHistorySchema>;

export interface LaneQuery {
  origin?: string;
  destination?: string;
  from?: string;
  to?: string;
}

const normalizePlace = (place: string) => place.trim().toLowerCase();
const stringField = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * The caller's receipts whose request named this lane (origin and destination as typed, compared
 * case-insensitively), issued between `from` and `to` inclusive (UTC dates), oldest first.
 * The lane defaults to the anchor receipt's; the range to the 90 days up to `today`.
 */
export function laneHistory(db: Db, anchor: OwnReceipt, query: LaneQuery, today: string): LaneHistory {
  const anchorRequest = (anchor.body?.request ?? {}) as Record<string, unknown>;
  const origin = query.origin ?? stringField(anchorRequest.origin);
  const destination = query.destination ?? stringField(anchorRequest.destination);
  const missing = [
    ...(origin ? [] : [{ field: "origin", problem: "is required: the receipt's request names no origin" }]),
    ...(destination ? [] : [{ field: "destination", problem: "is required: the receipt's request names no destination" }]),
  ];
  if (!origin || !destination) throw errors.invalidRequest(missing);

  const to = query.to ?? today;
  const from = query.from ?? new Date(Date.parse(to) - DEFAULT_WINDOW_DAYS * DAY_MS).toISOString().slice(0, 10);
  if (from > to) throw errors.invalidRequest([{ field: "from", problem: "must not be after to" }]);

  const rows = db.$client
    .query<LaneRow, [string, number, number, string, string, number]>(
      `SELECT id, seq, issued_at AS issuedAt, skill,
              json_extract(body, '$.as_of') AS asOf,
              json_extract(body, '$.model_version') AS modelVersion,
              json_extract(body, '$.request.equipment') AS equipment,
              json_extract(body, '$.response.rate_per_mile') AS ratePerMile,
              json_extract(body, '$.response.total_cost') AS totalCost,
              json_extract(body, '$.response.miles') AS miles
         FROM receipts
        WHERE account_id = ? AND issued_at >= ? AND issued_at < ?
          AND lower(trim(json_extract(body, '$.request.origin'))) = ?
          AND lower(trim(json_extract(body, '$.request.destination'))) = ?
        ORDER BY seq
        LIMIT ?`,
    )
    .all(anchor.row.accountId, Date.parse(from), Date.parse(to) + DAY_MS, normalizePlace(origin), normalizePlace(destination), LANE_HISTORY_LIMIT + 1);

  const receipts = rows.slice(0, LANE_HISTORY_LIMIT).map((row) => ({
    receipt_id: row.id,
    seq: row.seq,
    issued_at: new Date(row.issuedAt).toISOString(),
    skill: row.skill,
    as_of: stringField(row.asOf) ?? null,
    model_version: stringField(row.modelVersion) ?? null,
    equipment: stringField(row.equipment) ?? null,
    rate_per_mile: numberOrNull(row.ratePerMile),
    total_cost: numberOrNull(row.totalCost),
    miles: numberOrNull(row.miles),
  }));
  return { report_type: "LANE_HISTORY", lane: { origin, destination }, from, to, receipts, count: receipts.length, truncated: rows.length > LANE_HISTORY_LIMIT };
}

interface LaneRow {
  id: string;
  seq: number;
  issuedAt: number;
  skill: string;
  asOf: unknown;
  modelVersion: unknown;
  equipment: unknown;
  ratePerMile: unknown;
  totalCost: unknown;
  miles: unknown;
}

const numberOrNull = (value: unknown) => (typeof value === "number" ? value : null);
