import type { Principal } from "../../access/principal.ts";
import { ApiError } from "../../errors.ts";
import { callName, type SkillInstance, type SkillResult } from "../types.ts";
import { canonicalJson, sha256Hex } from "../../receipts/canonical.ts";
import type { AnyReceiptBody } from "../../receipts/format.ts";

export interface Reproduction {
  /** true: same answer and same factor versions; false: different or could not run; null: not replayable, or the model changed. */
  reproducible: boolean | null;
  /** The re-run answer's canonical SHA-256 equals the signed response_sha256. */
  answer_matches: boolean | null;
  factor_versions_match: boolean | null;
  detail: string;
  /** The re-computed answer (the receipt keeps only its digest); null when the skill was not re-run. */
  reproducedAnswer: unknown;
}

/**
 * Re-run the recorded skill on the recorded input over the recorded data view (as_of, known_at) and
 * compare: the SHA-256 of the answer's canonical JSON with the signed response_sha256, the factor
 * versions (canonical JSON) with the recorded ones.
 */
export async function replay(body: AnyReceiptBody, instance: SkillInstance): Promise<Reproduction> {
  const skill = instance.skills.find((candidate) => callName(candidate) === body.skill);
  if (!skill) return notReplayed(false, `This instance no longer serves the skill ${body.skill}.`);
  if (!skill.replayable || !skill.handler) {
    return notReplayed(
      null,
      `${body.skill} answers depend on the instance's own records (the receipt ledger, an account's alerts), not only on reference data, so they are not re-run.`,
    );
  }

  const caller: Principal = {
    accountId: body.account_id,
    keyId: body.key_id,
    authObjId: body.auth_obj_id,
    tier: body.tier,
    scopes: body.scopes,
  };
  let result: SkillResult<unknown>;
  try {
    result = await skill.handler(body.request, {
      data: instance.reference.view(body.as_of, Date.parse(body.known_at)),
      caller,
      instance,
    });
  } catch (error) {
    const reason = error instanceof ApiError ? `${error.errorCode}: ${error.message}` : "the handler failed";
    return notReplayed(false, `Re-running ${body.skill} on the recorded input failed (${reason}).`);
  }

  const factorsMatch = canonicalJson(result.factorVersions) === canonicalJson(body.factor_versions);
  if (result.modelVersion !== body.model_version) {
    // A new model gives a different answer by design: that is not a mismatch, and the signed digest still proves the old answer.
    return {
      reproducible: null,
      answer_matches: null,
      factor_versions_match: factorsMatch,
      detail:
        `The model changed since this receipt was signed: it was signed under ${body.model_version}, and this instance now runs ` +
        `${result.modelVersion}, so the answer is not compared. The signed response digest still proves the answer as it was given; ` +
        "the reproduced response is what the current model answers for the same input and data view.",
      reproducedAnswer: result.answer,
    };
  }
  const answerMatches =
    sha256Hex(canonicalJson(result.answer)) === body.response_sha256 ||
    signedBeforeDataAge(result.answer, body.response_sha256);
  const detail =
    answerMatches && factorsMatch
      ? `Re-running ${body.skill} on the recorded input and data view gave the same answer from the same factor versions.`
      : `Re-running ${body.skill} under the same model (${body.model_version}) gave ${answerMatches ? "the same" : "a different"} answer from ${factorsMatch ? "the same" : "different"} factor versions.`;
  return {
    reproducible: answerMatches && factorsMatch,
    answer_matches: answerMatches,
    factor_versions_match: factorsMatch,
    detail,
    reproducedAnswer: result.answer,
  };
}

/**
 * Answers signed before they carried `data_as_of` (docs/api.md#data-age) reproduce when the re-run
 * answer without it has the signed digest: the field is derived from the factor versions, which are
 * compared on their own.
 */
function signedBeforeDataAge(answer: unknown, responseSha256: string): boolean {
  if (typeof answer !== "object" || answer === null || !("data_as_of" in answer)) return false;
  const { data_as_of: _derived, ...without } = answer as Record<string, unknown>;
  return sha256Hex(canonicalJson(without)) === responseSha256;
}

export function notReplayed(reproducible: false | null, detail: string): Reproduction {
  return { reproducible, answer_matches: null, factor_versions_match: null, detail, reproducedAnswer: null };
}
