import type { SQLQueryBindings } from "bun:sqlite";
import type { Db, Store } from "../../db/client.ts";
import { storedReceiptAt } from "../store.ts";
import type { CheckpointRow, CompactRow, Part, ReceiptRow, ReceiptRows, SigningKeyRow } from "./types.ts";

/**
 * The ledger's rows on the SQLite file: bun:sqlite statements prepared once, whose work is done by
 * the time the call returns (the promise is already settled). One process appends to a file, so
 * the log needs no lock of its own.
 */
export function sqliteReceiptRows(db: Db): ReceiptRows {
  const known = prepared.get(db.$client);
  if (known) return known;
  const rows = prepare(db);
  prepared.set(db.$client, rows);
  return rows;
}

const prepared = new WeakMap<object, ReceiptRows>();

function prepare(db: Db): ReceiptRows {
  // Each statement is prepared at its first use: an older file (before an upgrade's migration) can
  // still have its signing key read.
  const lazily = <Row, Params extends SQLQueryBindings[]>(text: string) => {
    let statement: ReturnType<typeof db.$client.prepare<Row, Params>> | undefined;
    return () => (statement ??= db.$client.prepare<Row, Params>(text));
  };
  const insertReceipt = lazily(
    `INSERT INTO receipts (seq, id, issued_at, skill, account_id, principal_part, request_part, factors_part, model_part,
                           as_of, known_at, response_sha256, hash, lane, request_id, key_id, latency_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const findPart = lazily<{ id: number }, [Uint8Array]>("SELECT id FROM receipt_parts WHERE sha256 = ?");
  const insertPart = lazily<{ id: number }, [Uint8Array, string]>(
    "INSERT INTO receipt_parts (sha256, text) VALUES (?, ?) RETURNING id",
  );
  const tile = lazily<{ hashes: Uint8Array }, [number, number]>(
    "SELECT hashes FROM log_tiles WHERE level = ? AND idx = ?",
  );
  const putTile = lazily("INSERT INTO log_tiles (level, idx, hashes) VALUES (?, ?, ?)");
  const tileCount = lazily<{ n: number }, [number]>("SELECT count(*) AS n FROM log_tiles WHERE level = ?");
  const entries = lazily<{ hash: Uint8Array }, [number, number]>(
    "SELECT hash FROM receipts WHERE seq > ? AND seq <= ? ORDER BY seq",
  );
  const receiptCount = lazily<{ n: number | null }, []>("SELECT max(seq) AS n FROM receipts");
  const receiptRows = lazily<{ n: number }, []>("SELECT count(*) AS n FROM receipts");
  const latestCheckpoint = lazily<CheckpointRow, []>(
    "SELECT tree_size AS treeSize, root_hash AS rootHash, kid, note FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1",
  );
  const checkpointCovering = lazily<CheckpointRow, [number]>(
    "SELECT tree_size AS treeSize, root_hash AS rootHash, kid, note FROM log_checkpoints WHERE tree_size >= ? ORDER BY tree_size LIMIT 1",
  );
  const insertCheckpoint = lazily(
    "INSERT INTO log_checkpoints (tree_size, root_hash, kid, note, signed_at) VALUES (?, ?, ?, ?, ?)",
  );
  const newestKey = lazily<SigningKeyRow, []>(
    "SELECT kid, public_key AS publicKey, private_key AS privateKey, created_at AS createdAt FROM signing_keys ORDER BY created_at DESC, kid LIMIT 1",
  );
  const publicKeys = lazily<{ kid: string; publicKey: string; createdAt: number }, []>(
    "SELECT kid, public_key AS publicKey, created_at AS createdAt FROM signing_keys ORDER BY created_at DESC, kid",
  );
  const setting = lazily<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?");
  const putSetting = lazily(
    "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  const checkpoints = lazily<CheckpointRow, []>(
    "SELECT tree_size AS treeSize, root_hash AS rootHash, kid, note FROM log_checkpoints ORDER BY tree_size",
  );
  const receiptPage = lazily<CompactRow, [number, number]>(
    `SELECT seq, id, issued_at AS issuedAt, skill, account_id AS accountId, principal_part AS principalPart,
            request_part AS requestPart, factors_part AS factorsPart, model_part AS modelPart, as_of AS asOf, known_at AS knownAt,
            lower(hex(response_sha256)) AS responseSha256, hash, body IS NOT NULL AS whole
       FROM receipts WHERE seq > ? ORDER BY seq LIMIT ?`,
  );
  const part = lazily<Part, [number]>("SELECT text, lower(hex(sha256)) AS sha256Hex FROM receipt_parts WHERE id = ?");
  const insertKey = lazily("INSERT INTO signing_keys (kid, public_key, private_key, created_at) VALUES (?, ?, ?, ?)");
  return {
    shared: false,
    async writeBatch() {}, // every row went in at once
    endBatch() {},
    async insertReceipt(_tx: Store, row: ReceiptRow) {
      insertReceipt().run(
        row.seq,
        row.id,
        row.issuedAt,
        row.skill,
        row.accountId,
        row.principalPart,
        row.requestPart,
        row.factorsPart,
        row.modelPart,
        row.asOf,
        row.knownAt,
        row.responseSha256,
        row.hash,
        row.lane,
        row.requestId,
        row.keyId,
        row.latencyMs,
      );
    },
    findPart: async (_tx, sha256) => findPart().get(sha256)?.id,
    async insertPart(_tx, sha256, text) {
      const row = insertPart().get(sha256, text);
      if (!row) throw new Error("INSERT … RETURNING gave no row for the receipt part");
      return row.id;
    },
    tile: async (level, index) => tile().get(level, index)?.hashes,
    async putTile(_tx, level, index, hashes) {
      putTile().run(level, index, hashes);
    },
    tileCount: async (level) => tileCount().get(level)?.n ?? 0,
    entries: async (from, to) =>
      entries()
        .all(from, to)
        .map((row) => Buffer.from(row.hash)),
    receiptCount: async () => receiptCount().get()?.n ?? 0,
    receiptRows: async () => receiptRows().get()?.n ?? 0,
    latestCheckpoint: async () => latestCheckpoint().get() ?? undefined,
    checkpointCovering: async (size) => checkpointCovering().get(size) ?? undefined,
    async insertCheckpoint(_tx, row) {
      insertCheckpoint().run(row.treeSize, row.rootHash, row.kid, row.note, row.signedAt);
    },
    newestSigningKey: async () => newestKey().get() ?? undefined,
    publicKeys: async () => publicKeys().all(),
    setting: async (key) => setting().get(key)?.value,
    async putSetting(_tx, key, value) {
      putSetting().run(key, value);
    },
    async insertSigningKey(_tx, row) {
      insertKey().run(row.kid, row.publicKey, row.privateKey, row.createdAt);
    },
    async lockLog() {},
    async openBatch() {
      throw new Error("the SQLite file's log has one appending process: no batch head to read");
    },
    checkpoints: async () => checkpoints().all(),
    receiptPage: async (afterSeq, limit) => receiptPage().all(afterSeq, limit),
    async parts(ids) {
      const found = new Map<number, Part>();
      for (const id of ids) {
        const row = part().get(id);
        if (row) found.set(id, row);
      }
      return found;
    },
    storedReceipt: (seq) => storedReceiptAt(db, seq),
  };
}
