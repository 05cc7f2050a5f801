import { errors } from "./errors.ts";

/**
 * Opaque page cursors for lists that run newest first: a cursor names the position after the last
 * item of a page (here the ledger `seq`), base64url so callers treat it as a token, not a number
 * to edit. A cursor this service did not issue is a 400 on the field that carried it.
 */
export function encodeCursor(beforeSeq: number): string {
  return Buffer.from(JSON.stringify({ before_seq: beforeSeq })).toString("base64url");
}

export function decodeCursor(raw: string, field = "cursor"): number {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as { before_seq?: unknown };
    if (Number.isSafeInteger(parsed.before_seq) && (parsed.before_seq as number) > 0)
      return parsed.before_seq as number;
  } catch {
    // falls through to the refusal
  }
  throw errors.invalidRequest([
    { field, problem: "is not a cursor this service issued; pass next_cursor from the previous page" },
  ]);
}
