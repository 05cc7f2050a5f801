import { and, eq, gt, lte } from "drizzle-orm";
import { authenticateCaller } from "../../../access/authenticate.ts";
import type { Principal } from "../../../access/principal.ts";
import type { Store } from "../../../db/client.ts";
import { first } from "../../../db/transaction.ts";
import { canonicalJson, sha256Hex } from "../../../receipts/canonical.ts";
import type { PipelineDeps, SkillCall, SkillReply } from "../../../pipeline/run-skill.ts";
import type { AnySkill } from "../../../skills/types.ts";
import { ApiError, errors } from "../../../errors.ts";
import type { RateLimitHeaders } from "../../../metering/window-status.ts";

/**
 * `Idempotency-Key` on POST skill calls (docs/api.md): the first answer under a key is stored with
 * its receipt in the answer's own transaction; a retry with the same request within 24 hours gets
 * that answer back (same receipt_id, `Idempotency-Replayed: true`) without being metered again; a
 * different request under the same key is IDEMPOTENCY_KEY_REUSED. Only answers are stored: a
 * refused call (429, 403, 400…) may be retried under the same key. Duplicates arriving while the
 * first is still running wait for it, so they never reach the meter.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const WELL_FORMED_KEY = /^[\x21-\x7E]{1,255}$/;

interface StoredAnswer {
  skill: string;
  requestSha256: string;
  body: string;
}

interface IdempotencyStore {
  /** Run a POST skill call under the caller's Idempotency-Key. */
  run(
    skill: AnySkill,
    key: string,
    call: SkillCall,
    execute: (call: SkillCall) => Promise<SkillReply>,
  ): Promise<SkillReply>;
}

class KeyAlreadyTaken extends Error {}

export function createIdempotencyStore(
  deps: Pick<PipelineDeps, "db" | "clock" | "keys" | "meter" | "refreshCaches">,
): IdempotencyStore {
  const inFlight = new Map<string, Promise<unknown>>();
  const { idempotentAnswers } = deps.db.t;

  const find = (accountId: string, key: string, now: number): Promise<StoredAnswer | undefined> =>
    first(
      deps.db
        .select({
          skill: idempotentAnswers.skill,
          requestSha256: idempotentAnswers.requestSha256,
          body: idempotentAnswers.body,
        })
        .from(idempotentAnswers)
        .where(
          and(
            eq(idempotentAnswers.accountId, accountId),
            eq(idempotentAnswers.key, key),
            gt(idempotentAnswers.createdAt, now - IDEMPOTENCY_WINDOW_MS),
          ),
        ),
    );

  /** An expired record under the same key is replaced; a live one means another process (or replica) answered first. */
  const insert = async (
    tx: Store,
    row: {
      accountId: string;
      key: string;
      skill: string;
      requestSha256: string;
      body: string;
      receiptId: string;
      now: number;
    },
  ) => {
    const expiredBefore = row.now - IDEMPOTENCY_WINDOW_MS;
    const { now, ...record } = row;
    const replaced = {
      skill: record.skill,
      requestSha256: record.requestSha256,
      body: record.body,
      receiptId: record.receiptId,
      createdAt: now,
    };
    const written = await tx
      .insert(idempotentAnswers)
      .values({ ...record, createdAt: now })
      .onConflictDoUpdate({
        target: [idempotentAnswers.accountId, idempotentAnswers.key],
        set: replaced,
        setWhere: lte(idempotentAnswers.createdAt, expiredBefore),
      })
      .returning({ key: idempotentAnswers.key });
    if (written.length === 0) throw new KeyAlreadyTaken();
    // Records past the window are never replayed again: drop them as new ones arrive (indexed on created_at).
    await tx.delete(idempotentAnswers).where(lte(idempotentAnswers.createdAt, expiredBefore));
  };

  const replay = async (
    stored: StoredAnswer,
    requestSha256: string,
    skill: AnySkill,
    principal: Principal,
    requestId: string,
    now: number,
  ): Promise<SkillReply> => {
    let headers: RateLimitHeaders;
    try {
      // On PostgreSQL this read includes the key's row: a key revoked since (on any replica) gets no replay.
      headers = await deps.meter.peek(principal, now);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, body: error.body(requestId), headers: { ...error.headers }, principal: null };
    }
    if (stored.skill !== skill.name || stored.requestSha256 !== requestSha256) {
      const error = errors.idempotencyKeyReused();
      return {
        status: error.status,
        body: error.body(requestId, principal.authObjId),
        headers: { ...error.headers },
        principal,
      };
    }
    return {
      status: 200,
      body: JSON.parse(stored.body) as Record<string, unknown>,
      headers: { ...headers, "Idempotency-Replayed": "true" },
      principal,
    };
  };

  return {
    async run(skill, key, call, execute) {
      let principal: Principal;
      try {
        principal = await authenticateCaller(deps, call.authorization);
      } catch {
        return execute(call); // the pipeline gives the 401
      }
      if (!WELL_FORMED_KEY.test(key)) {
        const error = errors.invalidRequest([
          { field: "Idempotency-Key", problem: "must be 1 to 255 visible ASCII characters (a UUID is a good choice)" },
        ]);
        return { status: 400, body: error.body(call.requestId, principal.authObjId), headers: {}, principal };
      }
      let input: unknown;
      try {
        input = await call.readInput();
      } catch (error) {
        return execute({ ...call, readInput: () => Promise.reject(error) });
      }
      const requestSha256 = sha256Hex(canonicalJson({ skill: skill.name, input: input ?? null }));
      const slot = `${principal.accountId} ${key}`;
      const answerOnce = async (): Promise<SkillReply> => {
        const stored = await find(principal.accountId, key, deps.clock.now());
        if (stored) return replay(stored, requestSha256, skill, principal, call.requestId, deps.clock.now());
        const reply = await execute({
          ...call,
          readInput: async () => input,
          alsoInAnswerTransaction: (tx, answeredAs, body) =>
            insert(tx, {
              accountId: answeredAs.accountId,
              key,
              skill: skill.name,
              requestSha256,
              body: JSON.stringify(body),
              receiptId: String(body.receipt_id),
              now: deps.clock.now(),
            }),
        });
        if (reply.status === 200) return reply;
        // Another process (or replica) may have answered under this key between our look-up and our commit.
        const answeredElsewhere = await find(principal.accountId, key, deps.clock.now());
        return answeredElsewhere
          ? replay(answeredElsewhere, requestSha256, skill, principal, call.requestId, deps.clock.now())
          : reply;
      };
      for (let waiting = inFlight.get(slot); waiting; waiting = inFlight.get(slot))
        await waiting.catch(() => undefined);

      // Taken before the first await, so duplicates arriving meanwhile wait in the loop above.
      const answering = answerOnce();
      inFlight.set(slot, answering);
      try {
        return await answering;
      } finally {
        inFlight.delete(slot);
      }
    },
  };
}
