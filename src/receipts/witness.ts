import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import type { Store } from "../db/client.ts";
import { parseCheckpointText, parseNote } from "./log/note.ts";
import { portableReceiptRows } from "./rows/portable.ts";
import { signedCheckpointProblem } from "./verify.ts";

/**
 * A checkpoint kept outside the database (docs/receipts.md, "The witness file"): the server copies
 * its latest durable checkpoint to `<db>.checkpoint` as it goes, and refuses to start on a log that
 * no longer contains it. Whoever trims the newest receipts together with their checkpoints, or
 * deletes every checkpoint, must also find and edit this file; restoring an older backup is a trim
 * too, and the refusal says to move the file aside on purpose.
 */
export const witnessFileOf = (dbFile: string): string => `${dbFile}.checkpoint`;

/** Why the log does not contain the witnessed checkpoint, or null when it does (or there is no witness yet). */
export async function witnessProblem(store: Store, file: string): Promise<string | null> {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, "utf8");
  let size: number;
  let rootHash: string;
  try {
    const body = parseCheckpointText(parseNote(text).text);
    size = body.size;
    rootHash = body.root.toString("hex");
  } catch (error) {
    return `the checkpoint kept in ${file} is not a checkpoint (${(error as Error).message})`;
  }
  const rows = portableReceiptRows(store);
  const stored = await rows.checkpointCovering(size);
  const aside = `; if the database was restored from an older backup on purpose, move ${file} aside`;
  if (!stored || stored.treeSize !== size)
    return `the log no longer holds the checkpoint of ${size} receipts kept in ${file}: receipts or checkpoints were removed${aside}`;
  if (stored.rootHash !== rootHash)
    return `the log's checkpoint of ${size} receipts differs from the one kept in ${file}: the log was rewritten${aside}`;
  const problem = signedCheckpointProblem({ ...stored, note: text }, await rows.publicKeys());
  return problem ? `the checkpoint kept in ${file} is not valid: ${problem}` : null;
}

/**
 * Replace the witness with a newer checkpoint note: written and fsynced under another name, then
 * renamed into place, so a power cut leaves the old note or the new one, never a torn file.
 */
export function writeWitness(file: string, note: string): void {
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, "w", 0o600);
  try {
    writeSync(fd, note);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}
