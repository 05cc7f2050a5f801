import { randomBytes } from "node:crypto";
import type { Store } from "../../db/client.ts";
import type { ReceiptRows } from "../rows/types.ts";
import { originFromUrl } from "./note.ts";

const SETTING = "log_origin";

/**
 * The checkpoint origin line, which is also the key name of the log's note signatures. Chosen at
 * the first start and kept in `settings`, so the log keeps one identity across restarts: the
 * configured origin (WAYBILL_LOG_ORIGIN), else the public URL without its scheme plus `/log` (the tiles' URL prefix), else a random
 * name under `waybill.invalid/` (a reserved domain: the log is then only known by its key).
 * Configuring another origin later renames the log from then on; older checkpoints keep theirs.
 * Replicas starting together take the log's lock first, so they agree on a random name.
 */
export async function resolveLogOrigin(
  rows: ReceiptRows,
  tx: Store,
  configured: { origin?: string; publicUrl?: string } = {},
): Promise<string> {
  const wanted = configured.origin ?? (configured.publicUrl ? `${originFromUrl(configured.publicUrl)}/log` : undefined);
  await rows.lockLog(tx);
  const stored = await rows.setting(SETTING, tx);
  const origin = wanted ?? stored ?? `waybill.invalid/${randomBytes(6).toString("hex")}`;
  if (!/^[^\s+]+$/.test(origin)) throw new Error(`the log origin '${origin}' must be non-empty, without spaces or '+'`);
  if (origin !== stored) await rows.putSetting(tx, SETTING, origin);
  return origin;
}

/** The stored origin, for commands that read the log without starting it. */
export function storedLogOrigin(rows: ReceiptRows): Promise<string | undefined> {
  return rows.setting(SETTING);
}
