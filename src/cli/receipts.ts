import { existsSync, readFileSync } from "node:fs";
import type { Store } from "../db/client.ts";
import { parseCheckpointText, parseNote } from "../receipts/log/note.ts";
import { verifyLog, type KeptCheckpoint, type LogVerification } from "../receipts/verify.ts";
import { UsageError, type CommandResult } from "./result.ts";

/**
 * `waybill receipts verify [--checkpoint FILE]`: exit 0 when every receipt, tile and checkpoint is
 * intact, 1 naming the first failure. A checkpoint a client kept (FILE) must be a prefix of the
 * log too, which is what shows receipts deleted from the end together with the later checkpoints;
 * so must the server's own witness file (`witness`), when there is one.
 */
export async function receiptsVerifyCommand(
  db: Store,
  options: { json: boolean; checkpoint?: string; witness?: string },
): Promise<CommandResult> {
  const kept: KeptCheckpoint[] = [];
  if (options.checkpoint) kept.push(readKeptCheckpoint(options.checkpoint));
  // The server's own copy of its latest checkpoint, beside the database (docs/receipts.md, "The witness file").
  if (options.witness && existsSync(options.witness)) kept.push(readKeptCheckpoint(options.witness));
  const result = await verifyLog(db, kept);
  const exitCode = result.ok ? 0 : 1;
  if (options.json) {
    if (result.ok) return { exitCode, output: JSON.stringify(result) };
    // the error shape of every command (error, message), with the verification's details beside it
    return {
      exitCode,
      output: JSON.stringify({
        error: "failed",
        message: `receipt log broken at ${where(result)}: ${result.problem}`,
        ...result,
      }),
    };
  }
  if (result.ok) {
    return {
      exitCode,
      output:
        result.checked === 0
          ? "The receipt log is empty: nothing to verify."
          : `Receipt log intact: ${result.checked} receipts and ${result.checkpoints} signed checkpoints, every leaf, tile, signature and root valid.`,
    };
  }
  return {
    exitCode,
    output: `Receipt log broken at ${where(result)}: ${result.problem}. ${result.checked} receipts before it are intact.`,
  };
}

function readKeptCheckpoint(file: string): KeptCheckpoint {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`cannot read the checkpoint file ${file}`);
  }
  try {
    return { ...parseCheckpointText(parseNote(text).text), note: text };
  } catch (error) {
    throw new UsageError(`${file} is not a signed checkpoint: ${(error as Error).message}`);
  }
}

const where = (result: LogVerification) =>
  result.firstBrokenSeq !== undefined
    ? `receipt seq ${result.firstBrokenSeq}`
    : `checkpoint at tree size ${result.failedCheckpoint}`;
