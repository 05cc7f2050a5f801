import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { errors } from "../errors.ts";
import { composeBody, type PrincipalPart } from "./compact-body.ts";
import type { AnyReceiptBody, StoredReceipt } from "./format.ts";
import type { Part } from "./rows/types.ts";

export interface OwnReceipt {
  row: StoredReceipt;
  /** null when the stored body is not JSON any more (the verification block then says why). */
  body: AnyReceiptBody | null;
}

/** A receipts row with the texts of the parts it names (null where a part is missing). */
interface JoinedRow {
  seq: number;
  id: string;
  issuedAt: number;
  skill: string;
  accountId: string;
  asOf: string | null;
  knownAt: number | null;
  responseSha256: string | null;
  body: string | null;
  prevHash: string | null;
  hash: string;
  signature: string | null;
  kid: string | null;
  principal: string | null;
  request: string | null;
  requestSha256: string | null;
  factors: string | null;
  model: string | null;
}

/**
 * The row as readers see it: the body rebuilt from its parts (or as stored whole). A row whose
 * parts are missing, or are not parts of their kind, gets an empty body, which no hash matches: `receipts verify` reports it.
 */
function toStoredReceipt(row: JoinedRow): StoredReceipt {
  const body = row.body ?? rebuiltBody(row);
  let grant: Partial<PrincipalPart> = {};
  try {
    grant = JSON.parse(row.principal ?? row.body ?? "{}") as Partial<PrincipalPart>;
  } catch {
    // a whole body that is not JSON: the verification block says so
  }
  return {
    seq: row.seq,
    id: row.id,
    issuedAt: row.issuedAt,
    skill: row.skill,
    accountId: row.accountId,
    authObjId: String(grant.auth_obj_id ?? ""),
    tier: String(grant.tier ?? ""),
    body,
    hash: row.hash,
    prevHash: row.prevHash,
    signature: row.signature,
    kid: row.kid,
  };
}

function rebuiltBody(row: JoinedRow): string {
  const { principal, request, requestSha256, factors, model, asOf, knownAt, responseSha256 } = row;
  if (principal === null || request === null || requestSha256 === null || factors === null || model === null) return "";
  if (asOf === null || knownAt === null || responseSha256 === null) return "";
  try {
    return composeBody({
      logIndex: row.seq - 1,
      id: row.id,
      issuedAt: row.issuedAt,
      knownAt,
      skill: row.skill,
      accountId: row.accountId,
      asOf,
      principal,
      request,
      requestSha256,
      factors,
      model,
      responseSha256,
    });
  } catch {
    return ""; // a part id pointing at a part of another kind (edited): nothing to rebuild
  }
}

/**
 * Stored receipts matching `where` (on `store.t.receipts`), in `order`, at most `limit`: the rows,
 * then the texts of the shared parts they name in one more query. The same builders on every
 * engine (docs/postgresql.md, "Reading skills").
 */
export async function readStoredReceipts(
  store: Store,
  where: SQL | undefined,
  order: SQL[] = [],
  limit?: number,
): Promise<StoredReceipt[]> {
  const r = store.t.receipts;
  const query = store
    .select({ ...receiptRowColumns(r), body: r.body, prevHash: r.prevHash, signature: r.signature, kid: r.kid })
    .from(r)
    .where(where)
    .orderBy(...order)
    .$dynamic();
  const rows = await (limit === undefined ? query : query.limit(limit));
  const texts = await receiptPartsById(
    store,
    rows.flatMap((row) =>
      [row.principalPart, row.requestPart, row.factorsPart, row.modelPart].filter((id) => id !== null),
    ),
  );
  const text = (id: number | null) => (id === null ? undefined : texts.get(id));
  return rows.map((row) =>
    toStoredReceipt({
      ...row,
      responseSha256: hexOf(row.responseSha256),
      hash: hexOf(row.hash),
      principal: text(row.principalPart)?.text ?? null,
      request: text(row.requestPart)?.text ?? null,
      requestSha256: text(row.requestPart)?.sha256Hex ?? null,
      factors: text(row.factorsPart)?.text ?? null,
      model: text(row.modelPart)?.text ?? null,
    }),
  );
}

/** What every reader of receipts rows selects: the row's own fields, the ids of its parts, its digests. */
export function receiptRowColumns(r: Store["t"]["receipts"]) {
  return {
    seq: r.seq,
    id: r.id,
    issuedAt: r.issuedAt,
    skill: r.skill,
    accountId: r.accountId,
    principalPart: r.principalPart,
    requestPart: r.requestPart,
    factorsPart: r.factorsPart,
    modelPart: r.modelPart,
    asOf: r.asOf,
    knownAt: r.knownAt,
    responseSha256: r.responseSha256,
    hash: r.hash,
  };
}

/** The stored receipt at `seq` (log index + 1), if any. */
export async function storedReceiptAt(store: Store, seq: number): Promise<StoredReceipt | undefined> {
  return (await readStoredReceipts(store, eq(store.t.receipts.seq, seq)))[0];
}

/** Shared receipt parts by id, one query (missing ids are absent from the map). */
export async function receiptPartsById(store: Store, ids: readonly number[]): Promise<Map<number, Part>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const p = store.t.receiptParts;
  const rows = await store.select({ id: p.id, text: p.text, sha256: p.sha256 }).from(p).where(inArray(p.id, unique));
  return new Map(rows.map((row) => [row.id, { text: row.text, sha256Hex: hexOf(row.sha256) }]));
}

/** Bytes as lowercase hex; a null column stays null, so a NOT NULL column's type stays a string. */
function hexOf(value: Uint8Array): string;
function hexOf(value: Uint8Array | null): string | null;
function hexOf(value: Uint8Array | null): string | null {
  return value === null ? null : Buffer.from(value).toString("hex");
}

/**
 * The caller's own receipt, or 404. A receipt of another account gets exactly the same refusal as
 * one that does not exist, so an id never reveals that it is real.
 */
export async function findOwnReceipt(store: Store, receiptId: string, accountId: string): Promise<OwnReceipt> {
  const r = store.t.receipts;
  const [row] = await readStoredReceipts(store, and(eq(r.id, receiptId), eq(r.accountId, accountId)));
  if (!row) throw errors.notFound("No receipt with that id exists for this account.");
  return { row, body: parseBody(row.body) };
}

export function parseBody(text: string): AnyReceiptBody | null {
  try {
    return JSON.parse(text) as AnyReceiptBody;
  } catch {
    return null;
  }
}
