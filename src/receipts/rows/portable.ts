import { and, asc, count, desc, eq, gt, gte, lte, max, sql } from "drizzle-orm";
import { lockUntilTransactionEnds } from "../../db/advisory-lock.ts";
import type { Store } from "../../db/client.ts";
import { PgStatement } from "../../db/pg-statement.ts";
import { first } from "../../db/transaction.ts";
import { receiptPartsById, receiptRowColumns, storedReceiptAt } from "../store.ts";
import type { ReceiptRows } from "./types.ts";

/** Any number that names the receipt log's lock; distinct from the migration lock (src/db/postgres.ts). */
const LOG_LOCK = 0x57a7_b10c;

/** The log's batch start: its lock, the newest checkpoint and key, the leaves since (migrations-pg/0007). */
const batchHead = new PgStatement(
  () =>
    sql`SELECT * FROM waybill_log_batch_head(${sql.placeholder("lock")}::bigint, ${sql.placeholder("knownSize")}::bigint)`,
);
const LEAF_BYTES = 32;

// A batch's tile and checkpoint, written on every batch under the log's lock: texts built once (pg-statement.ts).
const tileInsert = new PgStatement((tx) =>
  tx.insert(tx.t.logTiles).values({
    level: sql.placeholder("level"),
    idx: sql.placeholder("idx"),
    hashes: sql.placeholder("hashes"),
  }),
);
const checkpointInsert = new PgStatement((tx) =>
  tx.insert(tx.t.logCheckpoints).values({
    treeSize: sql.placeholder("treeSize"),
    rootHash: sql.placeholder("rootHash"),
    kid: sql.placeholder("kid"),
    note: sql.placeholder("note"),
    signedAt: sql.placeholder("signedAt"),
  }),
);

/** waybill_log_batch_head's row: the checkpoint's columns are null while the log is empty. */
interface BatchHeadRow {
  tree_size: number | string | null;
  root_hash: string;
  kid: string;
  note: string;
  newest_kid: string | null;
  leaves: number | string | null;
  hashes: Uint8Array | null;
}

const hex = (value: Uint8Array | null) => (value === null ? null : Buffer.from(value).toString("hex"));
const bytes = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

type ReceiptInsert = Store["t"]["receipts"]["$inferInsert"];

/** The columns every row sets (in the first row's order), or undefined when rows differ. */
function sameColumns(rows: ReceiptInsert[]): (keyof ReceiptInsert)[] | undefined {
  const setIn = (row: ReceiptInsert) =>
    (Object.keys(row) as (keyof ReceiptInsert)[]).filter((column) => row[column] !== undefined);
  const columns = setIn(rows[0] as ReceiptInsert);
  const same = rows.every((row) => {
    const other = setIn(row);
    return other.length === columns.length && other.every((column, i) => column === columns[i]);
  });
  return same ? columns : undefined;
}

/**
 * The ledger's rows through drizzle's builders, awaited: the same queries on any engine
 * (docs/postgresql.md). PostgreSQL runs these; several replicas append to one log there, so every
 * batch takes the log's lock first (docs/receipts.md, "One log across replicas").
 */
export function portableReceiptRows(store: Store): ReceiptRows {
  const t = store.t;
  const r = t.receipts;
  /** The open batch's receipt rows, written in one multi-row INSERT by writeBatch (one batch at a time per process). */
  let batchRows: ReceiptInsert[] = [];
  // The batch's multi-row INSERT, its text built once per row count (pg-statement.ts).
  const receiptsInsert = new PgStatement((tx, shape: string) => {
    const [count, names] = shape.split("|");
    const columns = (names ?? "").split(",") as (keyof ReceiptInsert)[];
    const placeholders = Array.from({ length: Number(count) }, (_, i) =>
      Object.fromEntries(columns.map((column) => [column, sql.placeholder(`${i}.${column}`)])),
    );
    // Builders take a placeholder for any column; Object.fromEntries only loses the key types.
    return tx.insert(tx.t.receipts).values(placeholders as unknown as ReceiptInsert[]);
  });
  return {
    parts: (ids) => receiptPartsById(store, ids),
    async checkpoints() {
      const c = t.logCheckpoints;
      return store
        .select({ treeSize: c.treeSize, rootHash: c.rootHash, kid: c.kid, note: c.note })
        .from(c)
        .orderBy(asc(c.treeSize));
    },
    async receiptPage(afterSeq, limit) {
      const rows = await store
        .select({ ...receiptRowColumns(r), whole: sql<boolean | number>`(${r.body} IS NOT NULL)` })
        .from(r)
        .where(gt(r.seq, afterSeq))
        .orderBy(asc(r.seq))
        .limit(limit);
      return rows.map((row) => ({ ...row, responseSha256: hex(row.responseSha256), whole: Number(row.whole) }));
    },
    storedReceipt: (seq) => storedReceiptAt(store, seq),
    // PostgreSQL is what runs these as a ledger, and there every replica appends to one log. Elsewhere
    // they only read (receipts verify, the witness check, audit reports), which never asks.
    shared: true,
    async insertReceipt(_tx, row) {
      batchRows.push({ ...row, responseSha256: bytes(row.responseSha256), hash: bytes(row.hash) });
    },
    async writeBatch(tx) {
      if (batchRows.length === 0) return;
      const rows = batchRows;
      batchRows = [];
      const columns = sameColumns(rows);
      if (!columns) return void (await tx.insert(t.receipts).values(rows));
      const values: Record<string, unknown> = {};
      for (const [i, row] of rows.entries()) for (const column of columns) values[`${i}.${column}`] = row[column];
      await receiptsInsert.rows(tx, `${rows.length}|${columns.join(",")}`, values);
    },
    endBatch() {
      batchRows = [];
    },
    async findPart(tx, sha256) {
      return (
        await first(
          tx
            .select({ id: t.receiptParts.id })
            .from(t.receiptParts)
            .where(eq(t.receiptParts.sha256, bytes(sha256))),
        )
      )?.id;
    },
    async insertPart(tx, sha256, text) {
      const [row] = await tx
        .insert(t.receiptParts)
        .values({ sha256: bytes(sha256), text })
        .returning({ id: t.receiptParts.id });
      if (!row) throw new Error("INSERT … RETURNING gave no row for the receipt part");
      return row.id;
    },
    async tile(level, index) {
      return (
        await first(
          store
            .select({ hashes: t.logTiles.hashes })
            .from(t.logTiles)
            .where(and(eq(t.logTiles.level, level), eq(t.logTiles.idx, index))),
        )
      )?.hashes;
    },
    async putTile(tx, level, index, hashes) {
      await tileInsert.rows(tx, "", { level, idx: index, hashes: bytes(hashes) });
    },
    async tileCount(level) {
      return (await first(store.select({ n: count() }).from(t.logTiles).where(eq(t.logTiles.level, level))))?.n ?? 0;
    },
    async entries(from, to, tx = store) {
      const rows = await tx
        .select({ hash: t.receipts.hash })
        .from(t.receipts)
        .where(and(gt(t.receipts.seq, from), lte(t.receipts.seq, to)))
        .orderBy(t.receipts.seq);
      return rows.map((row) => Buffer.from(row.hash));
    },
    async receiptCount() {
      return Number((await first(store.select({ n: max(t.receipts.seq) }).from(t.receipts)))?.n ?? 0);
    },
    async receiptRows() {
      return Number((await first(store.select({ n: count() }).from(t.receipts)))?.n ?? 0);
    },
    async latestCheckpoint(tx = store) {
      const c = t.logCheckpoints;
      return first(
        tx
          .select({ treeSize: c.treeSize, rootHash: c.rootHash, kid: c.kid, note: c.note })
          .from(c)
          .orderBy(desc(c.treeSize))
          .limit(1),
      );
    },
    async checkpointCovering(size) {
      const c = t.logCheckpoints;
      return first(
        store
          .select({ treeSize: c.treeSize, rootHash: c.rootHash, kid: c.kid, note: c.note })
          .from(c)
          .where(gte(c.treeSize, size))
          .orderBy(c.treeSize)
          .limit(1),
      );
    },
    async insertCheckpoint(tx, { treeSize, rootHash, kid, note, signedAt }) {
      await checkpointInsert.rows(tx, "", { treeSize, rootHash, kid, note, signedAt });
    },
    async newestSigningKey(tx = store) {
      return first(tx.select().from(t.signingKeys).orderBy(desc(t.signingKeys.createdAt), t.signingKeys.kid).limit(1));
    },
    async publicKeys() {
      const k = t.signingKeys;
      return store
        .select({ kid: k.kid, publicKey: k.publicKey, createdAt: k.createdAt })
        .from(k)
        .orderBy(desc(k.createdAt), k.kid);
    },
    async setting(key, tx = store) {
      return (await first(tx.select({ value: t.settings.value }).from(t.settings).where(eq(t.settings.key, key))))
        ?.value;
    },
    async putSetting(tx, key, value) {
      await tx.insert(t.settings).values({ key, value }).onConflictDoUpdate({ target: t.settings.key, set: { value } });
    },
    async insertSigningKey(tx, row) {
      await tx.insert(t.signingKeys).values(row);
    },
    lockLog: (tx) => lockUntilTransactionEnds(tx, LOG_LOCK),
    async openBatch(tx, knownSize) {
      const [row] = await batchHead.rows<BatchHeadRow>(tx, "", { lock: LOG_LOCK, knownSize });
      if (!row) throw new Error("waybill_log_batch_head returned no row");
      const checkpoint =
        row.tree_size === null
          ? undefined
          : { treeSize: Number(row.tree_size), rootHash: row.root_hash, kid: row.kid, note: row.note };
      const leaves = Number(row.leaves ?? 0);
      const hashes = row.hashes === null ? Buffer.alloc(0) : Buffer.from(row.hashes);
      // Every leaf entry is a SHA-256; anything else is read row by row.
      const entries =
        hashes.length === leaves * LEAF_BYTES
          ? Array.from({ length: leaves }, (_, i) => hashes.subarray(i * LEAF_BYTES, (i + 1) * LEAF_BYTES))
          : undefined;
      return { checkpoint, newestKid: row.newest_kid ?? undefined, entries };
    },
  };
}
