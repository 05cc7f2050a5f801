import { Type, type Static } from "@sinclair/typebox";
import type { StoredReceipt } from "../format.ts";
import type { ReceiptLog, SignedCheckpoint } from "./log.ts";
import { leafHash, verifyInclusion } from "./merkle.ts";

export const ReceiptProofSchema = Type.Object({
  /** The receipt's leaf index (seq - 1). */
  log_index: Type.Integer(),
  /** The leaf entry, hex: SHA-256 of the canonical receipt body. The leaf hash is SHA-256(0x00 || entry). */
  leaf_entry: Type.String(),
  tree_size: Type.Integer(),
  /** RFC 6962 inclusion proof of the leaf in the tree of `tree_size`, leaf side first, base64. */
  inclusion_proof: Type.Array(Type.String()),
  /** The signed C2SP checkpoint of `tree_size` the proof leads to. */
  checkpoint: Type.String(),
});
export type ReceiptProof = Static<typeof ReceiptProofSchema>;

/**
 * Where a receipt sits in the log, provable against the latest signed checkpoint: the leaf, its
 * inclusion proof and the checkpoint, which is what an offline verifier needs besides the key.
 * Null when no checkpoint covers the receipt yet (it cannot be: checkpoints are signed before answers).
 */
export function receiptProof(
  log: ReceiptLog,
  row: StoredReceipt,
): { proof: ReceiptProof; included: boolean; checkpoint: SignedCheckpoint } | null {
  const checkpoint = log.latest();
  const index = row.seq - 1;
  if (!checkpoint || index >= checkpoint.size) return null;
  const hashes = log.inclusionProof(index, checkpoint.size);
  const entry = Buffer.from(row.hash, "hex");
  return {
    proof: {
      log_index: index,
      leaf_entry: row.hash,
      tree_size: checkpoint.size,
      inclusion_proof: hashes.map((hash) => Buffer.from(hash).toString("base64")),
      checkpoint: checkpoint.note,
    },
    included: verifyInclusion(index, checkpoint.size, leafHash(entry), hashes, checkpoint.root),
    checkpoint,
  };
}
