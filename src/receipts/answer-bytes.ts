import { canonicalJson, sha256Hex } from "./canonical.ts";

/** What the server adds to an answer after hashing it (docs/receipts.md). */
export interface AnswerEnvelope {
  receipt_id: string;
  log_index: number;
  auth_obj_id: string;
}

/** The same fields by name: a saved answer is compared without them. */
export const ANSWER_ENVELOPE_FIELDS = [
  "receipt_id",
  "log_index",
  "auth_obj_id",
] as const satisfies readonly (keyof AnswerEnvelope)[];

/**
 * A response body as JSON text, `{...answer, receipt_id, log_index, auth_obj_id}`: the answer's
 * bytes up to the envelope (`bytes.prefix`, the same for every call that gets this answer), then
 * the envelope fields and the closing brace (`tail`).
 */
export interface AnswerBody {
  readonly bytes: AnswerBytes;
  readonly tail: string;
}

export const answerBodyText = (body: AnswerBody): string => body.bytes.prefix + body.tail;

/**
 * The answer's canonical JSON, hashed once for the receipt and sent as is: the response body is
 * these very bytes with the envelope fields appended, so the server serializes the answer once and
 * the digest is of the bytes the client receives (less the envelope).
 */
export class AnswerBytes {
  readonly text: string;
  readonly sha256: string;
  /** The body's text before the envelope fields: the answer without its closing brace. */
  readonly prefix: string;

  constructor(answer: unknown) {
    this.text = canonicalJson(answer);
    this.sha256 = sha256Hex(this.text);
    this.prefix = this.text === "{}" ? "{" : `${this.text.slice(0, -1)},`;
  }

  /** The response body with this envelope. */
  withEnvelope(envelope: AnswerEnvelope): AnswerBody {
    const tail = `"receipt_id":${JSON.stringify(envelope.receipt_id)},"log_index":${envelope.log_index},"auth_obj_id":${JSON.stringify(envelope.auth_obj_id)}}`;
    return { bytes: this, tail };
  }
}
