import { composeBody } from "./compact-body.ts";
import type { CompactRow, Part, ReceiptRows } from "./rows/types.ts";

/**
 * Rebuilds the leaf entries of compact receipts in bulk (`receipts verify`): each shared part is read
 * once and kept (`load` fetches a page's new ones), so a receipt costs its splice and one SHA-256 of
 * the rebuilt body.
 */
export class ReceiptRebuilder {
  private readonly known = new Map<number, Part | null>();

  constructor(private readonly rows: ReceiptRows) {}

  /** Read the parts these rows name that are not known yet. */
  async load(page: readonly CompactRow[]): Promise<void> {
    const missing = new Set<number>();
    for (const row of page) {
      for (const id of [row.principalPart, row.requestPart, row.factorsPart, row.modelPart])
        if (id !== null && !this.known.has(id)) missing.add(id);
    }
    if (missing.size === 0) return;
    if (this.known.size + missing.size >= 100_000) this.known.clear();
    const found = await this.rows.parts([...missing]);
    for (const id of missing) this.known.set(id, found.get(id) ?? null);
  }

  /** Why the row does not rebuild to its stored leaf entry, or null when it does. */
  entryProblem(row: CompactRow): string | null {
    const principal = this.part(row.principalPart);
    const request = this.part(row.requestPart);
    const factors = this.part(row.factorsPart);
    const model = this.part(row.modelPart);
    if (!principal || !request || !factors || !model)
      return "a part of its body (key grant, request, factors or model version) is missing";
    if (row.asOf === null || row.knownAt === null || row.responseSha256 === null)
      return "its as_of, known_at or response digest is missing";
    const { asOf, knownAt, responseSha256 } = row;
    let body: string;
    try {
      body = composeBody({
        logIndex: row.seq - 1,
        id: row.id,
        issuedAt: row.issuedAt,
        knownAt,
        skill: row.skill,
        accountId: row.accountId,
        asOf,
        principal: principal.text,
        request: request.text,
        requestSha256: request.sha256Hex,
        factors: factors.text,
        model: model.text,
        responseSha256,
      });
    } catch (error) {
      // A part id pointing at a part of another kind (a request where the key grant belongs) does not parse as one.
      return `its body does not rebuild from its parts (${(error as Error).message})`;
    }
    const entry = Bun.SHA256.hash(body) as Uint8Array;
    return sameBytes(entry, row.hash)
      ? null
      : "the stored leaf entry is not the SHA-256 of the body its columns rebuild";
  }

  private part(id: number | null): Part | null {
    return id === null ? null : (this.known.get(id) ?? null);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
