import type { Principal } from "../access/principal.ts";
import type { Store } from "../db/client.ts";
import type { FactorVersion } from "./format.ts";

/** What the pipeline knows about an answered call when it asks for a receipt. */
export interface ReceiptEntry {
  issuedAt: number;
  skill: string;
  principal: Principal;
  request: unknown; // the validated input
  response: unknown; // the answer body, without receipt_id; the receipt keeps only its digest
  /** SHA-256 of the answer's canonical JSON when the caller already has it (the bytes it sends). */
  responseSha256?: string;
  /** The canonical JSON of `request` and of `factorVersions`, when the caller already has them (a kept answer). */
  canonical?: { request: string; factors: string };
  factorVersions: FactorVersion[];
  modelVersion: string;
  asOf: string;
  /** When the call started (its usage's time too). */
  knownAt: number;
  /** The call's usage, which the receipt row carries (an answered call has no usage row of its own). */
  usage: AnsweredUsage;
}

/** What the usage reports read of an answered call beyond the receipt itself (docs/performance.md, "One row per answered call"). */
export interface AnsweredUsage {
  requestId: string;
  /** Milliseconds from the call's start to its write. */
  latencyMs: number;
}

export interface AppendedReceipt {
  id: string; // rcpt_<26-char ulid>
  seq: number;
  /** The receipt's leaf index in the transparency log (seq - 1). */
  logIndex: number;
  hash: string;
}

export interface ReceiptLedger {
  /** Append one receipt (a log leaf) inside the caller's group-commit write (`tx`, its transaction). */
  append(tx: Store, entry: ReceiptEntry): Promise<AppendedReceipt>;
}
