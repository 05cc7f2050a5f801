import type { Store } from "../db/client.ts";
import type { BatchParticipant } from "../db/group-commit.ts";
import type { ReceiptRows } from "./rows/types.ts";

/** Ids of this many texts are remembered; past it the memory starts over (the table still finds them). */
const MAX_REMEMBERED = 50_000;

/**
 * `receipt_parts`: canonical JSON texts shared by many receipts, each stored once and named by an
 * integer id (docs/receipts.md, "Storage"). Appending a receipt asks for the id of each of its parts;
 * a text seen before costs a Map lookup. Ids handed out inside a group-commit batch are remembered
 * only once the batch commits: a rolled-back write's part rows are gone, and their ids may be reused.
 */
export class ReceiptPartStore implements BatchParticipant {
  private readonly committed = new Map<string, number>();
  private readonly pending = new Map<string, number>();

  constructor(private readonly rows: ReceiptRows) {}

  /** The id of this text if it was seen before (a Map lookup, nothing awaited). */
  remembered(text: string): number | undefined {
    return this.committed.get(text) ?? this.pending.get(text);
  }

  /**
   * The id of this text, stored now if it is new; call inside the write that uses it (`tx`, its
   * transaction). `sha256` of the text when known (bytes, or lower-case hex). On a shared log the
   * batch holds the log's lock, so no other replica inserts the same part meanwhile.
   */
  async idOf(tx: Store, text: string, sha256?: Uint8Array | string): Promise<number> {
    const known = this.remembered(text);
    if (known !== undefined) return known;
    const digest =
      sha256 === undefined
        ? (Bun.SHA256.hash(text) as Uint8Array)
        : typeof sha256 === "string"
          ? Buffer.from(sha256, "hex")
          : sha256;
    const id = (await this.rows.findPart(tx, digest)) ?? (await this.rows.insertPart(tx, digest, text));
    this.pending.set(text, id);
    return id;
  }

  afterCommit(): void {
    if (this.committed.size + this.pending.size > MAX_REMEMBERED) this.committed.clear();
    for (const [text, id] of this.pending) this.committed.set(text, id);
    this.forgetPending();
  }

  afterRollback(): void {
    this.forgetPending();
  }

  private forgetPending(): void {
    this.pending.clear();
  }
}
