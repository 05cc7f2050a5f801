import type { Db } from "../db/client.ts";
import { verifyChain } from "../receipts/verify.ts";
import type { CommandResult } from "./result.ts";

/** `waybill receipts verify`: exit 0 when the whole chain is intact, 1 naming the first broken seq. */
export function receiptsVerifyCommand(db: Db, options: { json: boolean }): CommandResult {
  const result = verifyChain(db);
  const exitCode = result.ok ? 0 : 1;
  if (options.json) {
    if (result.ok) return { exitCode, output: JSON.stringify(result) };
    // the error shape of every command (error, message), with the verification's details beside it
    return { exitCode, output: JSON.stringify({ error: "failed", message: `receipt chain broken at seq ${result.firstBrokenSeq}: ${result.problem}`, ...result }) };
  }
  if (result.ok) {
    return {
      exitCode,
      output:
        result.checked === 0
          ? "The receipt chain is empty: nothing to verify."
          : `Receipt chain intact: ${result.checked} receipts, every hash, signature and link valid.`,
    };
  }
  return {
    exitCode,
    output: `Receipt chain broken at seq ${result.firstBrokenSeq}: ${result.problem}. ${result.checked} receipts before it are intact.`,
  };
}
