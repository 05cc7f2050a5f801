import type { Db } from "../db/client.ts";
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
export function compactStoredBodies(db: Db, parts: ReceiptPartStore): void {
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
  const compactAll = sqlite.transaction(() => {
    for (let batch = rows.all(0), last = batch.at(-1); last; batch = rows.all(last.seq), last = batch.at(-1)) {
      for (const row of batch) {
        // SQLite rows are synchronous: idOf returns the id itself.
        const compact = decomposeBody(row.body);
        // The columns rebuild the body, so a body that disagrees with its row keeps its text.
        if (!compact || !agrees(compact, row)) continue;
        update.run(
          parts.idOf(db, compact.principal) as number,
          parts.idOf(db, compact.request) as number,
          parts.idOf(db, compact.factors) as number,
          parts.idOf(db, compact.model) as number,
          compact.asOf,
          compact.knownAt,
          Buffer.from(compact.responseSha256, "hex"),
          row.seq,
        );
      }
    }
    sqlite.query("INSERT INTO settings (key, value) VALUES (?, '1')").run(COMPACTED);
  });
  try {
    compactAll.immediate();
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
