import { canonicalJson, sha256Hex } from "./canonical.ts";

/** What the server adds to an answer after hashing it (docs/receipts.md). */
export interface AnswerEnvelope {
  receipt_id: string;
  log_index: number;
  auth_obj_id: string;
}

/** The same fields by name: a saved answer is compared without them. */
export const ANSWER_ENVELOPE_FIELDS = ["receipt_id", "log_index", "auth_obj_id"] as const satisfies readonly (keyof AnswerEnvelope)[];

/**
 * The answer's canonical JSON, hashed once for the receipt and sent as is: the response body is
 * these very bytes with the envelope fields appended, so the server serializes the answer once and
 * the digest is of the bytes the client receives (less the envelope).
 */
export class AnswerBytes {
  readonly text: string;
  readonly sha256: string;

  constructor(answer: unknown) {
    this.text = canonicalJson(answer);
    this.sha256 = sha256Hex(this.text);
  }

  /** The response body: `{...answer, receipt_id, log_index, auth_obj_id}` as JSON text. */
  withEnvelope(envelope: AnswerEnvelope): string {
    const fields = `"receipt_id":${JSON.stringify(envelope.receipt_id)},"log_index":${envelope.log_index},"auth_obj_id":${JSON.stringify(envelope.auth_obj_id)}}`;
    return this.text === "{}" ? `{${fields}` : `${this.text.slice(0, -1)},${fields}`;
  }
}
