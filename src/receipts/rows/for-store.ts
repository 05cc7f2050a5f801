import type { Db, Store } from "../../db/client.ts";
import { portableReceiptRows } from "./portable.ts";
import { sqliteReceiptRows } from "./sqlite.ts";
import type { ReceiptRows } from "./types.ts";

/** The ledger's rows of this store: the SQLite file's prepared statements, or the builders elsewhere. */
export function receiptRowsOf(store: Store): ReceiptRows {
  return store.engine === "sqlite" && "$client" in store ? sqliteReceiptRows(store as Db) : portableReceiptRows(store);
}
