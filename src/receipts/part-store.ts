import type { Db } from "../db/client.ts";
import type { BatchParticipant } from "../db/group-commit.ts";

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
  /** Texts added to `pending` in order, so a write rolled back in its savepoint forgets its own. */
  private pendingOrder: string[] = [];
  private writeMark = 0;
  private readonly sql;

  constructor(db: Db) {
    const sqlite = db.$client;
    this.sql = {
      find: sqlite.prepare<{ id: number }, [Uint8Array]>("SELECT id FROM receipt_parts WHERE sha256 = ?"),
      insert: sqlite.prepare<{ id: number }, [Uint8Array, string]>("INSERT INTO receipt_parts (sha256, text) VALUES (?, ?) RETURNING id"),
    };
  }

  /** The id of this text, stored now if it is new; call inside the write that uses it. `sha256` of the text when known. */
  idOf(text: string, sha256?: Uint8Array): number {
    const known = this.committed.get(text) ?? this.pending.get(text);
    if (known !== undefined) return known;
    const digest = sha256 ?? (Bun.SHA256.hash(text) as Uint8Array);
    const id = this.sql.find.get(digest)?.id ?? this.sql.insert.get(digest, text)!.id;
    this.pending.set(text, id);
    this.pendingOrder.push(text);
    return id;
  }

  writeStarted(): void {
    this.writeMark = this.pendingOrder.length;
  }

  writeRolledBack(): void {
    for (const text of this.pendingOrder.splice(this.writeMark)) this.pending.delete(text);
  }

  beforeCommit(): void {}

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
    this.pendingOrder = [];
    this.writeMark = 0;
  }
}
