import type { Db, Store } from "../db/client.ts";
import { inTransaction } from "../db/transaction.ts";
import { decomposeBody, type CompactBody } from "./compact-body.ts";
import type { ReceiptPartStore } from "./part-store.ts";

const COMPACTED = "receipts_bodies_compacted";
const PAGE = 5000;

/**
 * Once per database, at startup: receipts stored with their whole body text (before the compact form)
 * are rewritten as parts when the parts rebuild the very same bytes; the others (the hash-chained
 * waybill.receipt/2 ones) keep their text. Leaf entries do not change, so the log and every
 * checkpoint stay as they were. One transaction: a crash leaves the database as it was.
 */
export async function compactStoredBodies(db: Db, parts: ReceiptPartStore): Promise<void> {
  const sqlite = db.$client;
  if (sqlite.query("SELECT 1 FROM settings WHERE key = ?").get(COMPACTED)) return;
  const rows = sqlite.prepare<StoredColumns, [number]>(
    `SELECT seq, id, issued_at AS issuedAt, skill, account_id AS accountId, body FROM receipts WHERE seq > ? AND body IS NOT NULL ORDER BY seq LIMIT ${PAGE}`,
  );
  const update = sqlite.prepare(
    `UPDATE receipts SET principal_part = ?, request_part = ?, factors_part = ?, model_part = ?, as_of = ?, known_at = ?,
            response_sha256 = ?, body = NULL
      WHERE seq = ?`,
  );
  const compactAll = async (tx: Store) => {
    for (let batch = rows.all(0), last = batch.at(-1); last; batch = rows.all(last.seq), last = batch.at(-1)) {
      for (const row of batch) {
        const compact = decomposeBody(row.body);
        // The columns rebuild the body, so a body that disagrees with its row keeps its text.
        if (!compact || !agrees(compact, row)) continue;
        update.run(
          await parts.idOf(tx, compact.principal),
          await parts.idOf(tx, compact.request),
          await parts.idOf(tx, compact.factors),
          await parts.idOf(tx, compact.model),
          compact.asOf,
          compact.knownAt,
          Buffer.from(compact.responseSha256, "hex"),
          row.seq,
        );
      }
    }
    sqlite.query("INSERT INTO settings (key, value) VALUES (?, '1')").run(COMPACTED);
  };
  try {
    await inTransaction(db, compactAll);
  } catch (error) {
    parts.afterRollback();
    throw error;
  }
  parts.afterCommit();
}

interface StoredColumns {
  seq: number;
  id: string;
  issuedAt: number;
  skill: string;
  accountId: string;
  body: string;
}

const agrees = (compact: CompactBody, row: StoredColumns) =>
  compact.logIndex === row.seq - 1 &&
  compact.id === row.id &&
  compact.issuedAt === row.issuedAt &&
  compact.skill === row.skill &&
  compact.accountId === row.accountId;
