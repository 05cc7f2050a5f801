import { sql } from "drizzle-orm";
import type { SQL } from "bun";
import { Backoff } from "./backoff.ts";
import type { Db, Store } from "./client.ts";
import { engineOf } from "./open.ts";
import { pgOf } from "./postgres.ts";

/**
 * In-memory caches (the key index, month counters, reference figures) must drop what a write
 * changed. Writes from this process announce themselves with markChanged(). Commits by another
 * process show up on SQLite as a new PRAGMA data_version, on PostgreSQL as a NOTIFY on
 * CHANGES_CHANNEL sent by announceChange() in the writer's transaction, with a fallback poll of a
 * fingerprint of the cached tables (docs/postgresql.md, "Seeing other replicas' writes").
 */
const localGenerations = new WeakMap<object, number>();

export const CHANGES_CHANNEL = "waybill_changes";

/** How often a PostgreSQL replica looks at the fingerprint, whatever it heard: bounds a missed NOTIFY. */
export const FALLBACK_POLL_MS = 1000;

export function markChanged(db: Store): void {
  const connection = (db as Partial<Db>).$client ?? db;
  localGenerations.set(connection, (localGenerations.get(connection) ?? 0) + 1);
}

/**
 * After a write that other processes cache: marks this process now, and on PostgreSQL sends the
 * NOTIFY inside `tx`'s transaction, so the other replicas hear of it when (and only if) it commits.
 * On SQLite the file's data_version already tells the other processes.
 */
export async function announceChange(tx: Store): Promise<void> {
  markChanged(tx);
  if (tx.engine === "postgres") await pgOf(tx).execute(sql`SELECT pg_notify(${CHANGES_CHANNEL}, '')`);
}

export interface ChangeWatcher {
  /**
   * Which kinds of change happened since the last poll; synchronous, so a request pays at most a
   * pragma read on SQLite and nothing on PostgreSQL. With `external: false` only this process's
   * writes are looked at.
   */
  poll(options?: { external?: boolean }): { local: boolean; external: boolean };
  /** Stop listening (PostgreSQL); the caller closes the database. */
  close(): Promise<void>;
}

/** The watcher for whichever engine the store is. */
export async function watchChanges(store: Store): Promise<ChangeWatcher> {
  const engine = engineOf(store);
  return engine.engine === "sqlite" ? new SqliteChangeWatcher(engine.db) : PostgresChangeWatcher.start(engine.db);
}

abstract class LocalGenerations {
  private seenLocal: number;

  constructor(private readonly connection: object) {
    this.seenLocal = this.readLocal();
  }

  protected localChanged(): boolean {
    const local = this.readLocal();
    const changed = local !== this.seenLocal;
    this.seenLocal = local;
    return changed;
  }

  private readLocal(): number {
    return localGenerations.get(this.connection) ?? 0;
  }
}

export class SqliteChangeWatcher extends LocalGenerations implements ChangeWatcher {
  private readonly dataVersion;
  private seenExternal: number;

  constructor(db: Db) {
    super(db.$client);
    this.dataVersion = db.$client.prepare<{ data_version: number }, []>("PRAGMA data_version");
    this.seenExternal = this.readExternal();
  }

  /** Costs one pragma read (a read transaction: shared-memory locks, no disk I/O) when looking outside. */
  poll({ external: lookOutside = true }: { external?: boolean } = {}): { local: boolean; external: boolean } {
    const external = lookOutside ? this.readExternal() : this.seenExternal;
    const changes = { local: this.localChanged(), external: external !== this.seenExternal };
    this.seenExternal = external;
    return changes;
  }

  async close(): Promise<void> {}

  private readExternal(): number {
    return this.dataVersion.get()?.data_version ?? 0;
  }
}

/**
 * One LISTEN per replica (Bun keeps a dedicated connection for it and re-subscribes after a drop).
 * A notification, a (re)subscription (anything may have been missed while it was down) or a changed
 * fingerprint in the fallback poll each mark an external change, which the next poll() reports.
 */
class PostgresChangeWatcher extends LocalGenerations implements ChangeWatcher {
  private heard = false;
  private fingerprint = "";
  private unreachable = false;
  private readonly backoff = new Backoff();
  private readonly timer: ReturnType<typeof setInterval>;
  private subscription?: SQL.ListenSubscription;

  static async start(store: Store & { $client: SQL }): Promise<PostgresChangeWatcher> {
    const watcher = new PostgresChangeWatcher(store.$client);
    watcher.fingerprint = await watcher.readFingerprint();
    watcher.subscription = await store.$client.listen(CHANGES_CHANNEL, watcher.hear, watcher.hear);
    watcher.heard = false; // the first subscription is not news
    return watcher;
  }

  private constructor(private readonly client: SQL) {
    super(client);
    this.timer = setInterval(() => void this.checkFingerprint(), FALLBACK_POLL_MS);
    this.timer.unref?.();
  }

  private readonly hear = () => {
    this.heard = true;
  };

  poll({ external: lookOutside = true }: { external?: boolean } = {}): { local: boolean; external: boolean } {
    const external = lookOutside && this.heard;
    if (external) this.heard = false;
    return { local: this.localChanged(), external };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.subscription?.unlisten();
  }

  /**
   * While the database cannot be reached the poll backs off and nothing is reported (reloading the
   * caches then would only fail, and would hold pool connections); the first read that works again
   * counts as a change, since anything may have been committed meanwhile.
   */
  private async checkFingerprint(): Promise<void> {
    if (!this.backoff.ready()) return;
    try {
      const now = await this.readFingerprint();
      if (now !== this.fingerprint || this.unreachable) this.heard = true;
      this.fingerprint = now;
      this.unreachable = false;
      this.backoff.succeeded();
    } catch {
      this.unreachable = true;
      this.backoff.failed();
    }
  }

  /** What replicas cache (grants and tiers, figures, signing keys) summed up in one cheap read of maxima and small counts. */
  private async readFingerprint(): Promise<string> {
    const [row] = await this.client`SELECT concat_ws('/',
        (SELECT max(id) FROM account_audit), (SELECT max(id) FROM observations),
        (SELECT count(*) FROM data_retractions), (SELECT count(*) FROM road_networks),
        (SELECT count(*) FROM signing_keys), (SELECT count(*) FROM api_keys),
        (SELECT count(*) FROM api_keys WHERE revoked_at IS NOT NULL)) AS fingerprint`;
    return String(row.fingerprint);
  }
}
