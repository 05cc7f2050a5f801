import { t, type Static } from "elysia";
import { decodeCursor, encodeCursor } from "../cursor.ts";
import type { Db } from "../db/client.ts";
import { errors } from "../http/errors.ts";
import type { ReferenceData } from "../reference/view.ts";
import type { AnySkill } from "../skills/types.ts";
import type { ReceiptBody } from "./format.ts";
import { replay } from "./replay.ts";
import { parseBody, type OwnReceipt } from "./store.ts";

/** The largest page; `limit` chooses a smaller one. */
export const LANE_HISTORY_LIMIT = 500;
export const LANE_HISTORY_DEFAULT_PAGE = 100;
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
      /**
       * Receipts keep only the answer's digest, so the figures come from re-running the skill: true when
       * the re-run answer matched the signed digest; false when it did not (figures null); null when
       * the skill's answer carries no lane figures.
       */
      answer_reproduced: t.Union([t.Boolean(), t.Null()]),
    }),
  ),
  count: t.Integer({ description: "Receipts on this page." }),
  next_cursor: t.Union([t.String(), t.Null()], {
    description: "Pass as `cursor` to get the next (older) page; null on the last page.",
  }),
});
export type LaneHistory = Static<typeof LaneHistorySchema>;
type LaneReceipt = LaneHistory["receipts"][number];

export interface LaneQuery {
  origin?: string;
  destination?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

export interface LaneHistoryDeps {
  db: Db;
  reference: ReferenceData;
  skills: () => readonly AnySkill[];
}

const LANE_FIGURES = ["rate_per_mile", "total_cost", "miles"] as const;
type LaneFigures = Pick<LaneReceipt, (typeof LANE_FIGURES)[number] | "answer_reproduced">;

const normalizePlace = (place: string) => place.trim().toLowerCase();
const stringField = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * The caller's receipts whose request named this lane (origin and destination as typed, compared
 * case-insensitively), issued between `from` and `to` inclusive (UTC dates), newest first, one
 * page at a time.
 * The lane defaults to the anchor receipt's; the range to the 90 days up to `today`.
 */
export function laneHistory(deps: LaneHistoryDeps, anchor: OwnReceipt, query: LaneQuery, today: string): LaneHistory {
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

  const pageSize = query.limit ?? LANE_HISTORY_DEFAULT_PAGE;
  const beforeSeq = query.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(query.cursor);
  const rows = deps.db.$client
    .query<LaneRow, [string, number, number, string, string, number, number]>(
      `SELECT id, seq, issued_at AS issuedAt, skill, body
         FROM receipts
        WHERE account_id = ? AND issued_at >= ? AND issued_at < ?
          AND lower(trim(json_extract(body, '$.request.origin'))) = ?
          AND lower(trim(json_extract(body, '$.request.destination'))) = ?
          AND seq < ?
        ORDER BY seq DESC
        LIMIT ?`,
    )
    .all(anchor.row.accountId, Date.parse(from), Date.parse(to) + DAY_MS, normalizePlace(origin), normalizePlace(destination), beforeSeq, pageSize + 1);

  const skills = deps.skills();
  const page = rows.slice(0, pageSize);
  const receipts = page.map((row): LaneReceipt => {
    const body = parseBody(row.body);
    return {
      receipt_id: row.id,
      seq: row.seq,
      issued_at: new Date(row.issuedAt).toISOString(),
      skill: row.skill,
      as_of: stringField(body?.as_of) ?? null,
      model_version: stringField(body?.model_version) ?? null,
      equipment: stringField((body?.request as Record<string, unknown> | undefined)?.equipment) ?? null,
      ...laneFigures(body, skills, deps.reference),
    };
  });
  const next_cursor = rows.length > pageSize ? encodeCursor(page.at(-1)!.seq) : null;
  return { report_type: "LANE_HISTORY", lane: { origin, destination }, from, to, receipts, count: receipts.length, next_cursor };
}

/**
 * Re-run only the receipts of skills whose answers declare lane figures at the top level (rate-lookup):
 * a forecast on the same lane would cost milliseconds to re-run and has no such figures to show.
 */
function laneFigures(body: ReceiptBody | null, skills: readonly AnySkill[], reference: ReferenceData): LaneFigures {
  const none: LaneFigures = { rate_per_mile: null, total_cost: null, miles: null, answer_reproduced: null };
  const skill = body && skills.find((candidate) => candidate.name === body.skill);
  if (!body || !skill || !declaresLaneFigures(skill)) return none;
  const { answer_matches, reproducedAnswer } = replay(body, skills, reference);
  if (answer_matches !== true) return { ...none, answer_reproduced: false };
  const answer = reproducedAnswer as Record<string, unknown>;
  return {
    rate_per_mile: numberOrNull(answer.rate_per_mile),
    total_cost: numberOrNull(answer.total_cost),
    miles: numberOrNull(answer.miles),
    answer_reproduced: true,
  };
}

function declaresLaneFigures(skill: AnySkill): boolean {
  const properties = (skill.output as { properties?: Record<string, unknown> }).properties ?? {};
  return LANE_FIGURES.some((figure) => figure in properties);
}

interface LaneRow {
  id: string;
  seq: number;
  issuedAt: number;
  skill: string;
  body: string;
}

const numberOrNull = (value: unknown) => (typeof value === "number" ? value : null);
