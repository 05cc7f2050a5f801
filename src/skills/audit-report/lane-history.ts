import { Type, type Static } from "@sinclair/typebox";
import { errors } from "../../errors.ts";
import type { AnySkill, SkillInstance } from "../types.ts";
import type { ReceiptBody } from "../../receipts/format.ts";
import { replay } from "./replay.ts";
import { parseBody, type OwnReceipt } from "../../receipts/store.ts";
import { DAY_MS, utcDateOf } from "../../dates.ts";

export const LANE_HISTORY_LIMIT = 500;
const DEFAULT_WINDOW_DAYS = 90;

export const LaneHistorySchema = Type.Object({
  report_type: Type.Literal("LANE_HISTORY"),
  lane: Type.Object({ origin: Type.String(), destination: Type.String() }),
  from: Type.String(),
  to: Type.String(),
  receipts: Type.Array(
    Type.Object({
      receipt_id: Type.String(),
      seq: Type.Integer(),
      issued_at: Type.String(),
      skill: Type.String(),
      as_of: Type.Union([Type.String(), Type.Null()]),
      model_version: Type.Union([Type.String(), Type.Null()]),
      equipment: Type.Union([Type.String(), Type.Null()]),
      rate_per_mile: Type.Union([Type.Number(), Type.Null()]),
      total_cost: Type.Union([Type.Number(), Type.Null()]),
      miles: Type.Union([Type.Number(), Type.Null()]),
      /**
       * Receipts keep only the answer's digest, so the figures come from re-running the skill: true when
       * the re-run answer matched the signed digest; false when it did not (figures null); null when
       * the skill's answer carries no lane figures.
       */
      answer_reproduced: Type.Union([Type.Boolean(), Type.Null()]),
    }),
  ),
  count: Type.Integer(),
  /** More receipts matched than LANE_HISTORY_LIMIT; narrow the date range. */
  truncated: Type.Boolean(),
});
export type LaneHistory = Static<typeof LaneHistorySchema>;
type LaneReceipt = LaneHistory["receipts"][number];

export interface LaneQuery {
  origin?: string;
  destination?: string;
  from?: string;
  to?: string;
}

const LANE_FIGURES = ["rate_per_mile", "total_cost", "miles"] as const;
type LaneFigures = Pick<LaneReceipt, (typeof LANE_FIGURES)[number] | "answer_reproduced">;

const normalizePlace = (place: string) => place.trim().toLowerCase();
const stringField = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * The caller's receipts whose request named this lane (origin and destination as typed, compared
 * case-insensitively), issued between `from` and `to` inclusive (UTC dates), oldest first.
 * The lane defaults to the anchor receipt's; the range to the 90 days up to `today`.
 */
export function laneHistory(deps: SkillInstance, anchor: OwnReceipt, query: LaneQuery, today: string): LaneHistory {
  const anchorRequest = (anchor.body?.request ?? {}) as Record<string, unknown>;
  const origin = query.origin ?? stringField(anchorRequest.origin);
  const destination = query.destination ?? stringField(anchorRequest.destination);
  const missing = [
    ...(origin ? [] : [{ field: "origin", problem: "is required: the receipt's request names no origin" }]),
    ...(destination ? [] : [{ field: "destination", problem: "is required: the receipt's request names no destination" }]),
  ];
  if (!origin || !destination) throw errors.invalidRequest(missing);

  const to = query.to ?? today;
  const from = query.from ?? utcDateOf(Date.parse(to) - DEFAULT_WINDOW_DAYS * DAY_MS);
  if (from > to) throw errors.invalidRequest([{ field: "from", problem: "must not be after to" }]);

  const rows = deps.db.$client
    .query<LaneRow, [string, number, number, string, string, number]>(
      `SELECT id, seq, issued_at AS issuedAt, skill, body
         FROM receipts
        WHERE account_id = ? AND issued_at >= ? AND issued_at < ?
          AND lower(trim(json_extract(body, '$.request.origin'))) = ?
          AND lower(trim(json_extract(body, '$.request.destination'))) = ?
        ORDER BY seq
        LIMIT ?`,
    )
    .all(anchor.row.accountId, Date.parse(from), Date.parse(to) + DAY_MS, normalizePlace(origin), normalizePlace(destination), LANE_HISTORY_LIMIT + 1);

  const receipts = rows.slice(0, LANE_HISTORY_LIMIT).map((row): LaneReceipt => {
    const body = parseBody(row.body);
    return {
      receipt_id: row.id,
      seq: row.seq,
      issued_at: new Date(row.issuedAt).toISOString(),
      skill: row.skill,
      as_of: stringField(body?.as_of) ?? null,
      model_version: stringField(body?.model_version) ?? null,
      equipment: stringField((body?.request as Record<string, unknown> | undefined)?.equipment) ?? null,
      ...laneFigures(body, deps),
    };
  });
  return { report_type: "LANE_HISTORY", lane: { origin, destination }, from, to, receipts, count: receipts.length, truncated: rows.length > LANE_HISTORY_LIMIT };
}

/**
 * Re-run only the receipts of skills whose answers declare lane figures at the top level (rate-lookup):
 * a forecast on the same lane would cost milliseconds to re-run and has no such figures to show.
 */
function laneFigures(body: ReceiptBody | null, instance: SkillInstance): LaneFigures {
  const none: LaneFigures = { rate_per_mile: null, total_cost: null, miles: null, answer_reproduced: null };
  const skill = body && instance.skills.find((candidate) => candidate.name === body.skill);
  if (!body || !skill || !declaresLaneFigures(skill)) return none;
  const { answer_matches, reproducedAnswer } = replay(body, instance);
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
