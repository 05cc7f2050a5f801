import type { Db } from "../db/client.ts";

/** A retraction that cannot be made; the message is one line for the operator. */
export class RetractionError extends Error {
  override name = "RetractionError";
}

export interface Retraction {
  importId: string;
  reason: string;
  retractedAt: number;
  observations: number;
}

/**
 * Hides every observation of one import from views known at or after `now`. Nothing is deleted:
 * a receipt signed earlier pins an earlier knownAt, so its view (and its replay) still sees them,
 * and the audit names the retraction and its reason.
 */
export function retractImport(db: Db, importId: string, reason: string, now: number): Retraction {
  const why = reason.trim();
  if (why === "") throw new RetractionError("a retraction needs a reason (--reason TEXT)");
  const sqlite = db.$client;
  return sqlite.transaction(() => {
    const found = sqlite.prepare<{ n: number }, [string]>("SELECT rows_added AS n FROM data_imports WHERE id = ?").get(importId);
    if (!found) throw new RetractionError(`no import '${importId}'; \`waybill data status\` lists them`);
    const earlier = sqlite.prepare<{ reason: string }, [string]>("SELECT reason FROM data_retractions WHERE import_id = ?").get(importId);
    if (earlier) throw new RetractionError(`import '${importId}' is already retracted (${earlier.reason})`);
    sqlite.prepare("INSERT INTO data_retractions (import_id, reason, retracted_at) VALUES (?, ?, ?)").run(importId, why, now);
    return { importId, reason: why, retractedAt: now, observations: found.n };
  })();
}
