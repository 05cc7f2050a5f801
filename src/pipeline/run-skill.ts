import type { ConfirmKeyLive } from "../access/key-liveness.ts";
import { CLIENT_GONE_STATUS, isClientGone } from "../client-gone.ts";
import { log } from "../ops/log.ts";
import type { KeyIndex } from "../access/key-index.ts";
import { authenticateCaller } from "../access/authenticate.ts";
import { authorize } from "../access/authorize.ts";
import type { Principal } from "../access/principal.ts";
import type { Clock } from "../clock.ts";
import type { Store } from "../db/client.ts";
import type { GroupCommitter } from "../db/group-commit.ts";
import { recordQuotaThreshold } from "../metering/quota-threshold.ts";
import { ApiError, apiErrorOf, errors } from "../errors.ts";
import type { Admission, Meter, UsageLog } from "../metering/meter.ts";
import type { RateLimitHeaders } from "../metering/window-status.ts";
import { AnswerBytes, type AnswerBody } from "../receipts/answer-bytes.ts";
import type { ReceiptLedger } from "../receipts/ledger.ts";
import type { ReceiptLog } from "../receipts/log/log.ts";
import type { ReferenceData } from "../reference/storage/view.ts";
import { checkAsOf } from "./as-of.ts";
import { callName, type AnySkill } from "../skills/types.ts";
import { validateInput } from "./validate.ts";
import { computeAnswer } from "./answer-memo.ts";
import { utcDateOf } from "../dates.ts";

export interface PipelineDeps {
  db: Store;
  clock: Clock;
  keys: KeyIndex;
  committer: GroupCommitter;
  meter: Meter;
  usage: UsageLog;
  ledger: ReceiptLedger;
  reference: ReferenceData;
  /** Every skill served: audit-report re-runs the one a receipt names. */
  skills: readonly AnySkill[];
  /** The receipt log (audit-report proves inclusion in it). */
  log: ReceiptLog;
  /** Called first on every call: drops caches that a write (here or in another process) made stale. */
  refreshCaches(): void;
  /** The engine's check that a key is still unrevoked, for routes that read nothing else (key-liveness.ts). */
  confirmKeyLive: ConfirmKeyLive;
  /** Counts answers and refusals for /metrics. */
  metrics?: { answered(skill: string): void; refused(skill: string, reason: string): void };
}

/** One skill call as any transport sees it. */
export interface SkillCall {
  requestId: string;
  authorization: string | null;
  /** Read lazily, after authentication: a caller without a key learns nothing about input rules. */
  readInput(): Promise<unknown>;
  inputSource: "body" | "query";
  /**
   * A write that must commit with the answer or not at all (the transport's idempotency record).
   * Throwing rolls the answer back, receipt and month count included.
   */
  alsoInAnswerTransaction?(tx: Store, principal: Principal, body: Record<string, unknown>): Promise<void>;
  /** The request's abort signal: a call whose client went away is not a server error and leaves no usage row. */
  signal?: AbortSignal;
}

export interface SkillReply {
  status: number;
  body: Record<string, unknown>;
  /** An answer's body: the bytes its receipt hashed, plus the envelope (receipt/answer-bytes.ts). */
  answerBody?: AnswerBody;
  headers: Record<string, string>;
  /** The call was refused before a key grant was found (401): nothing is metered or logged. */
  principal: Principal | null;
}

/**
 * authenticate → scope → tier → minute limit → month quota → validate → handler →
 * month count + receipt (carrying the call's usage) in one transaction → response. Every transport calls this.
 */
export async function runSkill(deps: PipelineDeps, skill: AnySkill, call: SkillCall): Promise<SkillReply> {
  const started = performance.now();
  let principal: Principal;
  try {
    principal = await authenticateCaller(deps, call.authorization);
  } catch (error) {
    return refusal(error, call.requestId, null, {});
  }

  const now = deps.clock.now();
  /** A refusal after authentication: answered with the caller's rate-limit headers, and logged. */
  const refuse = (error: unknown, headers: RateLimitHeaders): SkillReply => {
    const reply = refusal(error, call.requestId, principal, headers);
    deps.metrics?.refused(skill.name, String(reply.body.error));
    deps.usage.recordRefused({
      at: now,
      requestId: call.requestId,
      accountId: principal.accountId,
      keyId: principal.keyId,
      skill: skill.name,
      status: reply.status,
      latencyMs: performance.now() - started,
      receiptId: null,
    });
    return reply;
  };

  let admission: Admission;
  try {
    authorize(principal, skill);
    // Synchronous on a SQLite file; one round trip on PostgreSQL (docs/postgresql.md).
    admission = await deps.meter.admit(principal, now);
  } catch (error) {
    const headers = await settledHeaders(deps.meter, principal, now);
    // On PostgreSQL the peek reads the key's row: one revoked meanwhile is a 401, like any revoked key.
    return headers instanceof ApiError ? refusal(headers, call.requestId, null, {}) : refuse(error, headers);
  }

  try {
    const input = validateInput(skill.input, await call.readInput(), call.inputSource);
    const { answer, answerBytes, envelope } = await answerAdmitted(deps, skill, {
      principal,
      admission,
      input,
      now,
      started,
      requestId: call.requestId,
      alsoInAnswerTransaction: call.alsoInAnswerTransaction,
    });
    deps.metrics?.answered(skill.name);
    return {
      status: 200,
      body: { ...answer, ...envelope },
      answerBody: answerBytes.withEnvelope(envelope),
      headers: admission.headers,
      principal,
    };
  } catch (error) {
    admission.release();
    if (isClientGone(error, call.signal)) return { status: CLIENT_GONE_STATUS, body: {}, headers: {}, principal };
    return refuse(error, admission.headers);
  }
}

/**
 * A skill call made for a signed-in dashboard user under their account's key grant (no bearer key
 * on the request): scope → tier → minute → month → validate → answer, exactly as runSkill, and
 * refused the same way. Resolves to the answer with its envelope; throws the refusal.
 */
export async function runSkillAs(
  deps: PipelineDeps,
  skill: AnySkill,
  principal: Principal,
  rawInput: unknown,
  requestId: string,
): Promise<Record<string, unknown>> {
  const started = performance.now();
  const now = deps.clock.now();
  let admission: Admission | undefined;
  try {
    authorize(principal, skill);
    admission = await deps.meter.admit(principal, now);
    const input = validateInput(skill.input, rawInput, "body");
    const { answer, envelope } = await answerAdmitted(deps, skill, {
      principal,
      admission,
      input,
      now,
      started,
      requestId,
    });
    deps.metrics?.answered(skill.name);
    return { ...answer, ...envelope };
  } catch (error) {
    admission?.release();
    if (!(error instanceof ApiError)) log.failure("skill_call_failed", error, { request_id: requestId });
    deps.usage.recordRefused({
      at: now,
      requestId,
      accountId: principal.accountId,
      keyId: principal.keyId,
      skill: skill.name,
      status: error instanceof ApiError ? error.status : 500,
      latencyMs: performance.now() - started,
      receiptId: null,
    });
    throw error instanceof ApiError ? error : errors.internal();
  }
}

/** A call past the gates with a validated input, ready to be answered. */
export interface AdmittedCall {
  principal: Principal;
  admission: Admission;
  input: unknown;
  /** When the call was admitted (its data view's known_at). */
  now: number;
  /** performance.now() at the call's start, for its latency. */
  started: number;
  requestId: string;
  alsoInAnswerTransaction?: SkillCall["alsoInAnswerTransaction"];
}

/**
 * pin the data view → handler → month count + receipt (carrying the call's usage) in one
 * transaction. A synchronous handler's write is queued before this returns its promise, so calls
 * answered in one loop join one group transaction (a bid sheet's lanes, src/batch/runner.ts).
 * Throws the handler's or the commit's error; the caller releases the admission.
 */
export async function answerAdmitted(deps: PipelineDeps, skill: AnySkill, call: AdmittedCall) {
  const { principal, admission, input, now } = call;
  const asOf = skill.asOf?.(input) ?? utcDateOf(now);
  checkAsOf(asOf, utcDateOf(now));
  const data = deps.reference.view(asOf, now);
  const context = { data, caller: principal, instance: deps };
  // A writing operation runs inside the commit below, so its writes and its receipt commit together.
  // A handler that reads stored records (audit-report) answers with a promise; rate-lookup's stays synchronous.
  const computed = skill.write ? undefined : await computeAnswer(skill, input, context);
  // Answered means durable: the month count and the receipt with the call's usage commit together
  // (with other requests' rows, in one group transaction) before the response is sent.
  const { receipt, answer, answerBytes } = await deps.committer.commit(async (tx) => {
    // First in the write. On PostgreSQL the batch raises the month once per account and refuses the calls a month
    // used up by another replica has no room for (postgres-month-counts.ts); then it is null here.
    const monthCount = await admission.commit(tx);
    let result = computed?.result;
    if (!result) {
      if (!skill.write) throw new Error(`${skill.name} only reads, so its answer was computed before this commit`);
      result = await skill.write(input, { ...context, store: { tx, now } });
    }
    const answer = result.answer as Record<string, unknown>;
    const answerBytes = computed?.bytes ?? new AnswerBytes(answer);
    if (monthCount) await recordQuotaThreshold(tx, principal, monthCount, now);
    const receipt = await deps.ledger.append(tx, {
      // Read here, in commit order, so issue times never run backwards against seq (the clock is monotonic).
      issuedAt: deps.clock.now(),
      skill: callName(skill),
      principal,
      request: input,
      response: answer,
      responseSha256: answerBytes.sha256,
      canonical: computed?.canonical,
      factorVersions: result.factorVersions,
      modelVersion: result.modelVersion,
      asOf,
      knownAt: now,
      usage: { requestId: call.requestId, latencyMs: performance.now() - call.started },
    });
    await deps.usage.recordAnswered(tx, principal.keyId, now);
    await call.alsoInAnswerTransaction?.(tx, principal, { ...answer, ...answerEnvelope(receipt, principal) });
    return { receipt, answer, answerBytes };
  });
  return { receipt, answer, answerBytes, envelope: answerEnvelope(receipt, principal) };
}

/** A refusal's headers: the meter's current ones, or none if it cannot tell (the database is unreachable), or the refusal of a key revoked meanwhile. */
async function settledHeaders(meter: Meter, principal: Principal, now: number): Promise<RateLimitHeaders | ApiError> {
  try {
    return await meter.peek(principal, now);
  } catch (error) {
    return error instanceof ApiError ? error : {};
  }
}

/** What every answer carries beside the skill's own fields: its receipt, its place in the log, its key grant. */
const answerEnvelope = (receipt: { id: string; logIndex: number }, principal: Principal) => ({
  receipt_id: receipt.id,
  log_index: receipt.logIndex,
  auth_obj_id: principal.authObjId,
});

function refusal(
  error: unknown,
  requestId: string,
  principal: Principal | null,
  headers: Record<string, string>,
): SkillReply {
  const apiError = apiErrorOf(error);
  if (!(error instanceof ApiError)) log.failure("skill_call_failed", error, { request_id: requestId });
  return {
    status: apiError.status,
    body: apiError.body(requestId, principal?.authObjId),
    headers: { ...headers, ...apiError.headers },
    principal,
  };
}
