import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { originFromUrl } from "./note.ts";

const SETTING = "log_origin";

/**
 * The checkpoint origin line, which is also the key name of the log's note signatures. Chosen at
 * the first start and kept in `settings`, so the log keeps one identity across restarts: the
 * configured origin (WAYBILL_LOG_ORIGIN), else the public URL without its scheme plus `/log` (the tiles' URL prefix), else a random
 * name under `waybill.invalid/` (a reserved domain: the log is then only known by its key).
 * Configuring another origin later renames the log from then on; older checkpoints keep theirs.
 */
export function resolveLogOrigin(db: Db, configured: { origin?: string; publicUrl?: string } = {}): string {
  const wanted = configured.origin ?? (configured.publicUrl ? `${originFromUrl(configured.publicUrl)}/log` : undefined);
  const sqlite = db.$client;
  const stored = sqlite.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(SETTING)?.value;
  const origin = wanted ?? stored ?? `waybill.invalid/${randomBytes(6).toString("hex")}`;
  if (!/^[^\s+]+$/.test(origin)) throw new Error(`the log origin '${origin}' must be non-empty, without spaces or '+'`);
  if (origin !== stored) {
    sqlite.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(SETTING, origin);
  }
  return origin;
}

/** The stored origin, for commands that read the log without starting it. */
export function storedLogOrigin(db: Db): string | undefined {
  return db.$client.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(SETTING)?.value;
}
