import { sql } from "drizzle-orm";
import type { Db, Store } from "../db/client.ts";
import { PgStatement } from "../db/pg-statement.ts";
import type { PostgresStore } from "../db/postgres.ts";
import { inTransaction } from "../db/transaction.ts";
import { exclusively } from "../db/write-lock.ts";
import { isDatabaseUnreachable } from "../errors.ts";
import type { UsageEvent } from "./meter.ts";

/** A key's newest answered call in a batch: its id and the call's start (epoch ms). */
export type KeyUse = readonly [keyId: string, at: number];

/** How one engine writes usage (usage-log.ts, key-use.ts); runtime.ts picks the engine's. */
export interface UsageWrites {
  /** One flush of refusal rows in one transaction, a bad row (say, a key deleted meanwhile) failing alone: how many failed. */
  writeRefusals(events: UsageEvent[]): Promise<number>;
  /**
   * Keys' newest answered calls (key id, call start), on the batch's transaction, in one statement on
   * PostgreSQL; each column only moves forward.
   */
  setLastAnswered(tx: Store, uses: readonly KeyUse[]): Promise<void>;
}

const INSERT_USAGE =
  "INSERT INTO usage_events (at, request_id, account_id, key_id, skill, status, latency_ms, receipt_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
const SET_LAST_ANSWERED =
  "UPDATE api_keys SET last_answered_at = ?1 WHERE id = ?2 AND (last_answered_at IS NULL OR last_answered_at < ?1)";

/**
 * The SQLite file's: bun:sqlite's own statements, prepared once, behind the same promises. drizzle's
 * prepared insert maps its placeholders on every run, which cost more than the insert
 * (docs/performance.md, "Rows of an answered call").
 */
export function sqliteUsageWrites(db: Db): UsageWrites {
  const insert = db.$client.prepare<unknown, [number, string, string, string, string, number, number, string | null]>(
    INSERT_USAGE,
  );
  const setLastAnswered = db.$client.prepare<unknown, [number, string]>(SET_LAST_ANSWERED);
  const writeAlone = (event: UsageEvent): number => {
    try {
      insert.run(
        event.at,
        event.requestId,
        event.accountId,
        event.keyId,
        event.skill,
        event.status,
        event.latencyMs,
        event.receiptId,
      );
      return 0;
    } catch {
      return 1;
    }
  };
  return {
    // In turn with the connection's other transactions (write-lock.ts): called while a group-commit
    // batch awaits, bun:sqlite's transaction() would be a savepoint of the batch, lost if it rolled back.
    writeRefusals: (events) =>
      exclusively(db, async () =>
        db.$client.transaction(() => events.reduce((failed, event) => failed + writeAlone(event), 0))(),
      ),
    async setLastAnswered(_tx, uses) {
      for (const [keyId, at] of uses) setLastAnswered.run(at, keyId);
    },
  };
}

/**
 * The keys' last use, one UPDATE for every key of a batch, not one per key: each would be a round
 * trip under the log's lock (docs/postgresql.md, "Round trips and CPU per answer"). Its text is built
 * once per number of keys (pg-statement.ts).
 */
const lastAnswered = new PgStatement((tx, keys: number) => {
  const { apiKeys } = tx.t;
  const values = Array.from(
    { length: keys },
    (_, i) => sql`(${sql.placeholder(`key${i}`)}, ${sql.placeholder(`at${i}`)}::bigint)`,
  );
  return sql`UPDATE ${apiKeys} SET last_answered_at = v.at FROM (VALUES ${sql.join(values, sql`, `)}) AS v (id, at)
    WHERE ${apiKeys.id} = v.id AND (${apiKeys.lastAnsweredAt} IS NULL OR ${apiKeys.lastAnsweredAt} < v.at)`;
});

/** PostgreSQL's: one statement for the flush; if it fails, a transaction per row (a failed statement aborts its transaction). */
export function postgresUsageWrites(db: PostgresStore): UsageWrites {
  const insertUsage = (store: Store, rows: UsageEvent[]) => store.insert(store.t.usageEvents).values(rows);
  return {
    writeRefusals: (events) =>
      inTransaction(db, async (tx) => {
        await insertUsage(tx, events);
        return 0;
      }).catch(async (error: unknown) => {
        if (isDatabaseUnreachable(error)) throw error; // the usage log keeps the rows and tries again
        let failed = 0;
        for (const event of events)
          failed += await inTransaction(db, async (tx) => {
            await insertUsage(tx, [event]);
          }).then(
            () => 0,
            () => 1,
          );
        return failed;
      }),
    async setLastAnswered(tx, uses) {
      if (uses.length === 0) return;
      const values: Record<string, unknown> = {};
      for (const [i, [keyId, at]] of uses.entries()) {
        values[`key${i}`] = keyId;
        values[`at${i}`] = at;
      }
      await lastAnswered.rows(tx, uses.length, values);
    },
  };
}
