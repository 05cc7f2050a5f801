import type { Db, Store } from "../db/client.ts";
import { compactStoredBodies } from "./compact-migration.ts";
import { backfillLanes } from "./lane-key.ts";
import type { ReceiptPartStore } from "./part-store.ts";
import { portableReceiptRows } from "./rows/portable.ts";
import { sqliteReceiptRows } from "./rows/sqlite.ts";
import type { ReceiptRows } from "./rows/types.ts";

/**
 * Where a receipt ledger keeps its rows, and what an older store needs before the ledger opens on it.
 * The composition root picks one per engine (docs/architecture.md, "The storage seam").
 */
export interface LedgerStorage {
  rows: ReceiptRows;
  /** Brings rows written by an earlier release up to today's format; runs once, before the log opens. */
  upgrade?(parts: ReceiptPartStore): Promise<void>;
}

/** The SQLite file: prepared statements, and the upgrades of files written before PostgreSQL was supported. */
export function fileLedgerStorage(db: Db): LedgerStorage {
  return {
    rows: sqliteReceiptRows(db),
    async upgrade(parts) {
      backfillLanes(db);
      await compactStoredBodies(db, parts);
    },
  };
}

/** Any other store (PostgreSQL): drizzle's builders, awaited. */
export function portableLedgerStorage(store: Store): LedgerStorage {
  return { rows: portableReceiptRows(store) };
}
