import type { Store } from "../../db/client.ts";
import { engineOf } from "../../db/open.ts";
import { portableReceiptRows } from "./portable.ts";
import { sqliteReceiptRows } from "./sqlite.ts";
import type { ReceiptRows } from "./types.ts";

/** The ledger's rows of this store's engine: the SQLite file's prepared statements, drizzle's builders elsewhere. */
export function receiptRowsOf(store: Store): ReceiptRows {
  const engine = engineOf(store);
  return engine.engine === "sqlite" ? sqliteReceiptRows(engine.db) : portableReceiptRows(store);
}
