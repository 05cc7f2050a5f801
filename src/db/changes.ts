import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Db, Store } from "./client.ts";
import type { MaybePromise } from "./maybe-async.ts";

/**
 * In-memory caches (the key index, month counters, reference figures) must drop what a write
 * changed. Writes from this process announce themselves with markChanged(); commits by another
 * process on the same file (the CLI while the server runs) show up as a new PRAGMA data_version.
 */
const localGenerations = new WeakMap<object, number>();

export const CHANGES_CHANNEL = "waybill_changes";

export function markChanged(db: Store): void {
  const connection = (db as Partial<Db>).$client ?? db;
  localGenerations.set(connection, (localGenerations.get(connection) ?? 0) + 1);
}

/**
 * After a write that other processes cache: marks this process now, and on PostgreSQL sends the
 * NOTIFY inside `tx`'s transaction, so the other replicas hear of it when (and only if) it commits.
 * On SQLite the file's data_version already tells the other processes.
 */
export function announceChange(tx: Store): MaybePromise<void> {
  markChanged(tx);
  if (tx.engine === "postgres") return (tx as unknown as PgDatabase<PgQueryResultHKT>).execute(sql`SELECT pg_notify(${CHANGES_CHANNEL}, '')`).then(() => undefined);
}

export class ChangeWatcher {
  private readonly dataVersion;
  private seenExternal: number;
  private seenLocal: number;

  constructor(private readonly db: Db) {
    this.dataVersion = db.$client.prepare<{ data_version: number }, []>("PRAGMA data_version");
    this.seenExternal = this.readExternal();
    this.seenLocal = this.readLocal();
  }

  /**
   * Which kinds of change happened since the last poll. Costs one pragma read (a read transaction:
   * shared-memory locks, no disk I/O); with `external: false` only this process's writes are looked at.
   */
  poll({ external: lookOutside = true }: { external?: boolean } = {}): { local: boolean; external: boolean } {
    const external = lookOutside ? this.readExternal() : this.seenExternal;
    const local = this.readLocal();
    const changes = { local: local !== this.seenLocal, external: external !== this.seenExternal };
    this.seenExternal = external;
    this.seenLocal = local;
    return changes;
  }

  private readExternal(): number {
    return this.dataVersion.get()?.data_version ?? 0;
  }

  private readLocal(): number {
    return localGenerations.get(this.db.$client) ?? 0;
  }
}
