import type { Db } from "../db/client.ts";
import { errors } from "../errors.ts";
import { STORED_RECEIPT_COLUMNS, type ReceiptBody, type StoredReceipt } from "./format.ts";

export interface OwnReceipt {
  row: StoredReceipt;
  /** null when the stored body is not JSON any more (the verification block then says why). */
  body: ReceiptBody | null;
}

/**
 * The caller's own receipt, or 404. A receipt of another account gets exactly the same refusal as
 * one that does not exist, so an id never reveals that it is real.
 */
export function findOwnReceipt(db: Db, receiptId: string, accountId: string): OwnReceipt {
  const row = db.$client
    .query<StoredReceipt, [string, string]>(`SELECT ${STORED_RECEIPT_COLUMNS} FROM receipts WHERE id = ? AND account_id = ?`)
    .get(receiptId, accountId);
  if (!row) throw errors.notFound("No receipt with that id exists for this account.");
  return { row, body: parseBody(row.body) };
}

export function parseBody(text: string): ReceiptBody | null {
  try {
    return JSON.parse(text) as ReceiptBody;
  } catch {
    return null;
  }
}
