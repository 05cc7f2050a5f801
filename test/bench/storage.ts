// Stored bytes per receipt: every page of the tables and indexes an answered call writes (the
// receipt, which carries the call's usage, the parts it shares, the log's tiles and checkpoints;
// before migration 0008 also a usage row), over the receipts the file holds. Refused calls write
// usage rows but no receipt: `answered_only` counts the usage tables in proportion to the usage rows
// of answered calls (none on a file written since 0008).
// The embedded reference snapshot is left out: it is the same size whatever the traffic.
// `bun test/bench/storage.ts FILE` prints JSON.
import { Database } from "bun:sqlite";
import { defined } from "../support/defined.ts";

const db = new Database(defined(process.argv[2], "process.argv[2]"), { readonly: true });
const receipts = defined(
  db.query<{ n: number }, []>("SELECT count(*) AS n FROM receipts").get(),
  "the row of SELECT count(*) AS n FROM receipts",
).n;
const rows = db
  .query<{ name: string; bytes: number }, []>(
    `SELECT name, sum(pgsize) AS bytes FROM dbstat
      WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name IN ('receipts', 'receipt_parts', 'usage_events', 'log_tiles', 'log_checkpoints'))
      GROUP BY name`,
  )
  .all();
const usage = defined(
  db
    .query<{ answered: number; rows: number }, []>(
      "SELECT count(receipt_id) AS answered, count(*) AS rows FROM usage_events",
    )
    .get(),
  "the row of SELECT count(receipt_id) AS answered, count(*) AS rows FROM usage_events",
);
const answeredShare = usage.rows === 0 ? 1 : usage.answered / usage.rows;
const isUsage = (name: string) => name.startsWith("usage_events");
const answeredOnly = rows.reduce((sum, row) => sum + (isUsage(row.name) ? row.bytes * answeredShare : row.bytes), 0);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
const perReceipt = (bytes: number) => Math.round(bytes / Math.max(1, receipts));
console.log(
  JSON.stringify({
    receipts,
    bytes_per_receipt: perReceipt(total),
    answered_only: perReceipt(answeredOnly),
    by_table: Object.fromEntries(rows.map((row) => [row.name, perReceipt(row.bytes)])),
  }),
);
