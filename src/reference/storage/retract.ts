import { eq } from "drizzle-orm";
import { announceChange } from "../../db/changes.ts";
import type { Store } from "../../db/client.ts";
import { first, inTransaction } from "../../db/transaction.ts";

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
export async function retractImport(db: Store, importId: string, reason: string, now: number): Promise<Retraction> {
  const why = reason.trim();
  if (why === "") throw new RetractionError("a retraction needs a reason (--reason TEXT)");
  return inTransaction(db, async (tx) => {
    const { dataImports, dataRetractions } = tx.t;
    const found = await first(
      tx.select({ n: dataImports.rowsAdded }).from(dataImports).where(eq(dataImports.id, importId)),
    );
    if (!found) throw new RetractionError(`no import '${importId}'; \`waybill data status\` lists them`);
    const earlier = await first(
      tx.select({ reason: dataRetractions.reason }).from(dataRetractions).where(eq(dataRetractions.importId, importId)),
    );
    if (earlier) throw new RetractionError(`import '${importId}' is already retracted (${earlier.reason})`);
    await tx.insert(dataRetractions).values({ importId, reason: why, retractedAt: now });
    await announceChange(tx);
    return { importId, reason: why, retractedAt: now, observations: found.n };
  });
}
