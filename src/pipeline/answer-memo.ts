import { LRUCache } from "lru-cache";
import { AnswerBytes } from "../receipts/answer-bytes.ts";
import { canonicalJson } from "../receipts/canonical.ts";
import { callName, type AnyReadingDeclaration, type SkillContext, type SkillResult } from "../skills/types.ts";

/** A reading skill's result with its answer's canonical bytes and digest, as the receipt and the response use them. */
export interface ComputedAnswer {
  result: SkillResult<Record<string, unknown>>;
  bytes: AnswerBytes;
  /** For a kept answer: the canonical JSON of its input and factor versions, which its receipts record. */
  canonical?: { request: string; factors: string };
}

/** Kept answers are bounded by their canonical text: about this many characters in all. */
const KEPT_TEXT_CHARS = 8_000_000;

const kept = new LRUCache<string, ComputedAnswer>({
  maxSize: KEPT_TEXT_CHARS,
  sizeCalculation: (computed) => computed.bytes.text.length + 1,
});

/**
 * A reading skill's answer, and its canonical bytes, computed once per input and figures. A
 * replayable skill's answer depends only on its input and the reference data (its declaration says
 * so, and audit-report relies on it), and the view names its figures (`figures`), so the same lane
 * asked on the same figures gets the same answer, the same bytes and the same digest without
 * running the model, building data_as_of and canonicalizing again (docs/operations.md,
 * "Answered-call CPU"). Anything else is computed every time. A kept answer is shared by every call
 * that gets it, so nothing may change it: the pipeline only spreads it into new bodies (freezing it
 * deeply cost ≈ 15 µs per new answer, half the model's own time).
 */
export async function computeAnswer(
  skill: AnyReadingDeclaration,
  input: unknown,
  context: SkillContext,
): Promise<ComputedAnswer> {
  const figures = context.data.figures;
  if (!skill.replayable || figures === undefined) return fresh(skill, input, context);
  const key = `${callName(skill)}\n${figures}\n${JSON.stringify(input)}`;
  const known = kept.get(key);
  if (known) return known;
  const { result, bytes } = await fresh(skill, input, context);
  const computed = {
    result,
    bytes,
    canonical: { request: canonicalJson(input), factors: canonicalJson(result.factorVersions) },
  };
  kept.set(key, computed);
  return computed;
}

/** A synchronous handler (rate-lookup) answers at once; one that reads stored records (audit-report) once its read settles. */
async function fresh(skill: AnyReadingDeclaration, input: unknown, context: SkillContext): Promise<ComputedAnswer> {
  const result: SkillResult<Record<string, unknown>> = await skill.handler(input, context);
  return { result, bytes: new AnswerBytes(result.answer) };
}
