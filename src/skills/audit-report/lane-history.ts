import { Type, type Static } from "@sinclair/typebox";
import { and, desc, eq, gte, lt } from "drizzle-orm";
import { decodeCursor, encodeCursor } from "../../cursor.ts";
import type { Store } from "../../db/client.ts";
import { errors } from "../../errors.ts";
import type { AnySkill, SkillInstance } from "../types.ts";
import type { AnyReceiptBody } from "../../receipts/format.ts";
import { replay } from "./replay.ts";
import { laneKey } from "../../receipts/lane-key.ts";
import { parseBody, readStoredReceipts, type OwnReceipt } from "../../receipts/store.ts";
import { DAY_MS, utcDateOf } from "../../dates.ts";

/** The largest page; `limit` chooses a smaller one. */
export const LANE_HISTORY_LIMIT = 500;
export const LANE_HISTORY_DEFAULT_PAGE = 100;
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
  count: Type.Integer({ description: "Receipts on this page." }),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
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

const LANE_FIGURES = ["rate_per_mile", "total_cost", "miles"] as const;
type LaneFigures = Pick<LaneReceipt, (typeof LANE_FIGURES)[number] | "answer_reproduced">;

const stringField = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * The caller's receipts whose request named this lane (origin and destination as typed, compared
 * case-insensitively), issued between `from` and `to` inclusive (UTC dates), newest first, one
 * page at a time.
 * The lane defaults to the anchor receipt's; the range to the 90 days up to `today`.
 */
export async function laneHistory(
  deps: SkillInstance,
  anchor: OwnReceipt,
  query: LaneQuery,
  today: string,
): Promise<LaneHistory> {
  const anchorRequest = (anchor.body?.request ?? {}) as Record<string, unknown>;
  const origin = query.origin ?? stringField(anchorRequest.origin);
  const destination = query.destination ?? stringField(anchorRequest.destination);
  const missing = [
    ...(origin ? [] : [{ field: "origin", problem: "is required: the receipt's request names no origin" }]),
    ...(destination
      ? []
      : [{ field: "destination", problem: "is required: the receipt's request names no destination" }]),
  ];
  if (!origin || !destination) throw errors.invalidRequest(missing);

  const to = query.to ?? today;
  const from = query.from ?? utcDateOf(Date.parse(to) - DEFAULT_WINDOW_DAYS * DAY_MS);
  if (from > to) throw errors.invalidRequest([{ field: "from", problem: "must not be after to" }]);

  // One page of the lane's range of the index.
  const pageSize = query.limit ?? LANE_HISTORY_DEFAULT_PAGE;
  const beforeSeq = query.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(query.cursor);
  const range = laneRange(deps.db, {
    accountId: anchor.row.accountId,
    lane: laneKey(origin, destination),
    fromMs: Date.parse(from),
    toMs: Date.parse(to) + DAY_MS,
    beforeSeq,
  });
  const rows = await readStoredReceipts(deps.db, range.where, range.order, pageSize + 1);

  const page = rows.slice(0, pageSize);
  const reproduced = new Map<string, LaneFigures>();
  const receipts: LaneReceipt[] = [];
  // In turn, newest first: a receipt shares the re-run of an equal one above it on the page.
  for (const row of page) {
    const body = parseBody(row.body);
    receipts.push({
      receipt_id: row.id,
      seq: row.seq,
      issued_at: new Date(row.issuedAt).toISOString(),
      skill: row.skill,
      as_of: stringField(body?.as_of) ?? null,
      model_version: stringField(body?.model_version) ?? null,
      equipment: stringField((body?.request as Record<string, unknown> | undefined)?.equipment) ?? null,
      ...(await laneFigures(body, deps, reproduced)),
    });
  }
  const last = page.at(-1);
  const next_cursor = rows.length > pageSize && last ? encodeCursor(last.seq) : null;
  return {
    report_type: "LANE_HISTORY",
    lane: { origin, destination },
    from,
    to,
    receipts,
    count: receipts.length,
    next_cursor,
  };
}

/**
 * One range of the (account_id, lane, issued_at) index, newest first: an account's receipts on one
 * lane issued in [fromMs, toMs), older than `beforeSeq` (the cursor). Issue times follow seq, so the
 * order is the index's, read backwards, on both engines (docs/postgresql.md has PostgreSQL's plan).
 */
export function laneRange(
  store: Store,
  range: { accountId: string; lane: string; fromMs: number; toMs: number; beforeSeq: number },
) {
  const r = store.t.receipts;
  return {
    where: and(
      eq(r.accountId, range.accountId),
      eq(r.lane, range.lane),
      gte(r.issuedAt, range.fromMs),
      lt(r.issuedAt, range.toMs),
      lt(r.seq, range.beforeSeq),
    ),
    order: [desc(r.issuedAt), desc(r.seq)],
  };
}

/**
 * Re-run only the receipts of skills whose answers declare lane figures at the top level (rate-lookup):
 * a forecast on the same lane would cost milliseconds to re-run and has no such figures to show.
 * A lane's receipts mostly repeat one question on one day's figures, so a page shares re-runs: a
 * receipt with the same skill, model, request, as_of, factor versions and signed answer digest as
 * one already reproduced on this page signed that very answer (equal digests), and its figures are
 * that answer's. Only reproduced answers are shared; any other receipt is re-run on its own.
 */
async function laneFigures(
  body: AnyReceiptBody | null,
  instance: SkillInstance,
  reproduced: Map<string, LaneFigures>,
): Promise<LaneFigures> {
  const none: LaneFigures = { rate_per_mile: null, total_cost: null, miles: null, answer_reproduced: null };
  const skill = body && instance.skills.find((candidate) => candidate.name === body.skill);
  if (!body || !skill || !declaresLaneFigures(skill)) return none;
  const key = JSON.stringify([
    body.skill,
    body.model_version,
    body.as_of,
    body.response_sha256,
    body.request,
    body.factor_versions,
  ]);
  const shared = reproduced.get(key);
  if (shared) return shared;
  const { answer_matches, reproducedAnswer } = await replay(body, instance);
  if (answer_matches !== true) return { ...none, answer_reproduced: false };
  const answer = reproducedAnswer as Record<string, unknown>;
  const figures = {
    rate_per_mile: numberOrNull(answer.rate_per_mile),
    total_cost: numberOrNull(answer.total_cost),
    miles: numberOrNull(answer.miles),
    answer_reproduced: true,
  };
  reproduced.set(key, figures);
  return figures;
}

function declaresLaneFigures(skill: AnySkill): boolean {
  const properties = (skill.output as { properties?: Record<string, unknown> }).properties ?? {};
  return LANE_FIGURES.some((figure) => figure in properties);
}

const numberOrNull = (value: unknown) => (typeof value === "number" ? value : null);
