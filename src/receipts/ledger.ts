import type { Principal } from "../access/principal.ts";
import type { Db } from "../db/client.ts";
import type { FactorVersion } from "./format.ts";

/** What the pipeline knows about an answered call when it asks for a receipt. */
export interface ReceiptEntry {
  issuedAt: number;
  skill: string;
  principal: Principal;
  request: unknown; // the validated input
  response: unknown; // the answer body, without receipt_id; the receipt keeps only its digest
  factorVersions: FactorVersion[];
  modelVersion: string;
  asOf: string;
  knownAt: number;
}

export interface AppendedReceipt {
  id: string; // rcpt_<26-char ulid>
  seq: number;
  hash: string;
}

export interface ReceiptLedger {
  /** Append one signed, chained receipt inside the caller's write transaction. */
  append(tx: Db, entry: ReceiptEntry): AppendedReceipt;
}
