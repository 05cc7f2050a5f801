import type { Db } from "../db/client.ts";
import { errors } from "../errors.ts";
import { composeBody, type PrincipalPart } from "./compact-body.ts";
import type { AnyReceiptBody, StoredReceipt } from "./format.ts";

export interface OwnReceipt {
  row: StoredReceipt;
  /** null when the stored body is not JSON any more (the verification block then says why). */
  body: AnyReceiptBody | null;
}

/** A receipts row with the texts of the parts it names (null where a part is missing). */
export interface JoinedRow {
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

/** SELECT … FROM receipts r, with the parts joined; add the WHERE (on `r.`) and ORDER. */
export const SELECT_STORED_RECEIPTS = `
  SELECT r.seq, r.id, r.issued_at AS issuedAt, r.skill, r.account_id AS accountId, r.as_of AS asOf, r.known_at AS knownAt,
         lower(hex(r.response_sha256)) AS responseSha256, r.body, r.prev_hash AS prevHash, lower(hex(r.hash)) AS hash,
         r.signature, r.kid, p.text AS principal, q.text AS request, lower(hex(q.sha256)) AS requestSha256,
         f.text AS factors, m.text AS model
    FROM receipts r
    LEFT JOIN receipt_parts p ON p.id = r.principal_part
    LEFT JOIN receipt_parts q ON q.id = r.request_part
    LEFT JOIN receipt_parts f ON f.id = r.factors_part
    LEFT JOIN receipt_parts m ON m.id = r.model_part`;

/**
 * The row as readers see it: the body rebuilt from its parts (or as stored whole). A row whose
 * parts are missing gets an empty body, which no hash matches: `receipts verify` reports it.
 */
export function toStoredReceipt(row: JoinedRow): StoredReceipt {
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
}

/** Stored receipts matching `where` (SQL on `r.` columns, with its ORDER BY / LIMIT). */
export function readStoredReceipts(db: Db, where: string, ...params: (string | number)[]): StoredReceipt[] {
  return db.$client
    .query<JoinedRow, (string | number)[]>(`${SELECT_STORED_RECEIPTS} ${where}`)
    .all(...params)
    .map(toStoredReceipt);
}

/**
 * The caller's own receipt, or 404. A receipt of another account gets exactly the same refusal as
 * one that does not exist, so an id never reveals that it is real.
 */
export function findOwnReceipt(db: Db, receiptId: string, accountId: string): OwnReceipt {
  const [row] = readStoredReceipts(db, "WHERE r.id = ? AND r.account_id = ?", receiptId, accountId);
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
