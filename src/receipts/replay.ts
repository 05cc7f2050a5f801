import type { Principal } from "../access/principal.ts";
import { ApiError } from "../http/errors.ts";
import type { ReferenceData } from "../reference/view.ts";
import type { AnySkill } from "../skills/types.ts";
import { canonicalJson } from "./canonical.ts";
import type { ReceiptBody } from "./format.ts";

/** Skills whose answers depend on the live ledger rather than on reference data; they are never re-run. */
const NOT_REPLAYABLE = new Set(["audit-report"]);

export interface Reproduction {
  /** true: same answer and same factor versions; false: different or could not run; null: not a replayable skill. */
  reproducible: boolean | null;
  answer_matches: boolean | null;
  factor_versions_match: boolean | null;
  detail: string;
}

/**
 * Re-run the recorded skill on the recorded input over the recorded data view (as_of, known_at) and
 * compare canonical JSON: the answer with the recorded response, the factor versions with the recorded ones.
 */
export function replay(body: ReceiptBody, skills: readonly AnySkill[], reference: ReferenceData): Reproduction {
  if (NOT_REPLAYABLE.has(body.skill)) {
    return notRun(null, `${body.skill} answers are read from the live receipt ledger, so they are not re-run.`);
  }
  const skill = skills.find((candidate) => candidate.name === body.skill);
  if (!skill) return notRun(false, `This instance no longer serves the skill ${body.skill}.`);

  const caller: Principal = {
    accountId: body.account_id,
    keyId: body.key_id,
    authObjId: body.auth_obj_id,
    tier: body.tier,
    scopes: body.scopes,
  };
  let result;
  try {
    result = skill.handler(body.request as never, { data: reference.view(body.as_of, Date.parse(body.known_at)), caller });
  } catch (error) {
    const reason = error instanceof ApiError ? `${error.errorCode}: ${error.message}` : "the handler failed";
    return notRun(false, `Re-running ${body.skill} on the recorded input failed (${reason}).`);
  }

  const answerMatches = canonicalJson(result.answer) === canonicalJson(body.response);
  const factorsMatch = canonicalJson(result.factorVersions) === canonicalJson(body.factor_versions);
  const modelNote = result.modelVersion === body.model_version ? "" : ` The model is now ${result.modelVersion}, the receipt used ${body.model_version}.`;
  const detail =
    answerMatches && factorsMatch
      ? `Re-running ${body.skill} on the recorded input and data view gave the same answer from the same factor versions.`
      : `Re-running ${body.skill} gave ${answerMatches ? "the same" : "a different"} answer from ${factorsMatch ? "the same" : "different"} factor versions.${modelNote}`;
  return { reproducible: answerMatches && factorsMatch, answer_matches: answerMatches, factor_versions_match: factorsMatch, detail };
}

function notRun(reproducible: false | null, detail: string): Reproduction {
  return { reproducible, answer_matches: null, factor_versions_match: null, detail };
}
