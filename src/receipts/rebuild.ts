import type { Db } from "../db/client.ts";
import { composeBody } from "./compact-body.ts";

/** A receipts row as the whole-log check reads it: ids of its parts, binary digests, no body text. */
export interface CompactRow {
  seq: number;
  id: string;
  issuedAt: number;
  skill: string;
  accountId: string;
  principalPart: number | null;
  requestPart: number | null;
  factorsPart: number | null;
  modelPart: number | null;
  asOf: string | null;
  knownAt: number | null;
  /** Lowercase hex (SQLite's hex() is cheaper than a Buffer per row). */
  responseSha256: string | null;
  hash: Uint8Array;
  /** 1 when the body is stored whole (legacy receipts): checked by the full per-receipt check instead. */
  whole: number;
}

interface Part {
  text: string;
  sha256Hex: string;
}

/**
 * Rebuilds the leaf entries of compact receipts in bulk (`receipts verify`): each shared part is read
 * once and kept, so a receipt costs its splice and one SHA-256 of the rebuilt body.
 */
export class ReceiptRebuilder {
  static readonly SELECT = `SELECT seq, id, issued_at AS issuedAt, skill, account_id AS accountId, principal_part AS principalPart,
      request_part AS requestPart, factors_part AS factorsPart, model_part AS modelPart, as_of AS asOf, known_at AS knownAt,
      lower(hex(response_sha256)) AS responseSha256, hash, body IS NOT NULL AS whole
    FROM receipts`;

  private readonly parts = new Map<number, Part | null>();
  private readonly findPart;

  constructor(db: Db) {
    this.findPart = db.$client.prepare<Part, [number]>("SELECT text, lower(hex(sha256)) AS sha256Hex FROM receipt_parts WHERE id = ?");
  }

  /** Why the row does not rebuild to its stored leaf entry, or null when it does. */
  entryProblem(row: CompactRow): string | null {
    const principal = this.part(row.principalPart);
    const request = this.part(row.requestPart);
    const factors = this.part(row.factorsPart);
    const model = this.part(row.modelPart);
    if (!principal || !request || !factors || !model) return "a part of its body (key grant, request, factors or model version) is missing";
    if (row.asOf === null || row.knownAt === null || row.responseSha256 === null) return "its as_of, known_at or response digest is missing";
    const body = composeBody({
      logIndex: row.seq - 1,
      id: row.id,
      issuedAt: row.issuedAt,
      knownAt: row.knownAt,
      skill: row.skill,
      accountId: row.accountId,
      asOf: row.asOf,
      principal: principal.text,
      request: request.text,
      requestSha256: request.sha256Hex,
      factors: factors.text,
      model: model.text,
      responseSha256: row.responseSha256,
    });
    const entry = Bun.SHA256.hash(body) as Uint8Array;
    return sameBytes(entry, row.hash) ? null : "the stored leaf entry is not the SHA-256 of the body its columns rebuild";
  }

  private part(id: number | null): Part | null {
    if (id === null) return null;
    let part = this.parts.get(id);
    if (part === undefined) {
      part = this.findPart.get(id) ?? null;
      if (this.parts.size >= 100_000) this.parts.clear();
      this.parts.set(id, part);
    }
    return part;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
