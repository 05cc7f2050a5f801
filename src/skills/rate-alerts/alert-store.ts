import { and, count, desc, eq, lt } from "drizzle-orm";
import type { alerts } from "../../db/schema.ts";
import { first } from "../../db/transaction.ts";
import type { Writer } from "../../events/log.ts";
import { newId } from "../../ids.ts";
import type { Condition } from "./condition.ts";
import { MAX_ALERTS_BY_TIER, type Direction } from "./constants.ts";

export type AlertRecord = typeof alerts.$inferSelect;

export interface AlertDefinition {
  name: string;
  condition: Condition;
  direction: Direction;
  threshold: number;
  cooldownSeconds: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** An alert as every transport shows it. */
export function alertJson(alert: AlertRecord) {
  return {
    id: alert.id,
    name: alert.name,
    condition: alert.condition as Condition,
    direction: alert.direction,
    threshold: alert.threshold,
    cooldown_seconds: alert.cooldownSeconds,
    enabled: alert.enabled,
    state: {
      firing: alert.firing,
      last_value: alert.lastValue,
      last_evaluated_at: isoOrNull(alert.lastEvaluatedAt),
      last_fired_at: isoOrNull(alert.lastFiredAt),
    },
    created_at: iso(alert.createdAt),
    updated_at: iso(alert.updatedAt),
  };
}

/** One account's alerts: every read and write is scoped by account, so another account's alert is never found. */
export class AlertStore {
  constructor(
    private readonly tx: Writer,
    private readonly accountId: string,
  ) {}

  async count(): Promise<number> {
    const { alerts } = this.tx.t;
    const [row] = await this.tx.select({ n: count() }).from(alerts).where(eq(alerts.accountId, this.accountId));
    return row?.n ?? 0; // an aggregate without GROUP BY always returns its one row
  }

  async insert(definition: AlertDefinition, now: number): Promise<AlertRecord> {
    const { alerts } = this.tx.t;
    const [row] = await this.tx
      .insert(alerts)
      .values({
        id: newId("alrt", now),
        accountId: this.accountId,
        ...definition,
        condition: definition.condition,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("inserting an alert returned no row");
    return row;
  }

  find(id: string): Promise<AlertRecord | undefined> {
    const { alerts } = this.tx.t;
    return first(
      this.tx
        .select()
        .from(alerts)
        .where(and(eq(alerts.id, id), eq(alerts.accountId, this.accountId))),
    );
  }

  /** Newest first; the cursor is the last id of the previous page (ids are time-ordered). */
  async page(limit: number, cursor?: string): Promise<{ alerts: AlertRecord[]; nextCursor: string | null }> {
    const { alerts } = this.tx.t;
    const where = cursor
      ? and(eq(alerts.accountId, this.accountId), lt(alerts.id, cursor))
      : eq(alerts.accountId, this.accountId);
    const rows = await this.tx
      .select()
      .from(alerts)
      .where(where)
      .orderBy(desc(alerts.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { alerts: page, nextCursor: rows.length > limit && last ? last.id : null };
  }

  enabled(): Promise<AlertRecord[]> {
    const { alerts } = this.tx.t;
    return this.tx
      .select()
      .from(alerts)
      .where(and(eq(alerts.accountId, this.accountId), eq(alerts.enabled, true)))
      .orderBy(alerts.id);
  }

  async update(id: string, changes: Partial<typeof alerts.$inferInsert>): Promise<AlertRecord> {
    const { alerts } = this.tx.t;
    const [row] = await this.tx
      .update(alerts)
      .set(changes)
      .where(and(eq(alerts.id, id), eq(alerts.accountId, this.accountId)))
      .returning();
    if (!row) throw new Error(`alert ${id} of account ${this.accountId} was not there to update`);
    return row;
  }

  async delete(id: string): Promise<boolean> {
    const { alerts } = this.tx.t;
    const deleted = await this.tx
      .delete(alerts)
      .where(and(eq(alerts.id, id), eq(alerts.accountId, this.accountId)))
      .returning({ id: alerts.id });
    return deleted.length > 0;
  }
}

/**
 * Accounts with at least one enabled alert and a tier that still has alerts (scheduled and
 * data-driven evaluation walk these): an account moved below Starter keeps its alerts, unevaluated.
 */
export async function accountsWithAlerts(tx: Writer): Promise<string[]> {
  const { alerts, accounts } = tx.t;
  return (
    await tx
      .selectDistinct({ accountId: alerts.accountId, tier: accounts.tier })
      .from(alerts)
      .innerJoin(accounts, eq(accounts.id, alerts.accountId))
      .where(eq(alerts.enabled, true))
  )
    .filter((row) => MAX_ALERTS_BY_TIER[row.tier] > 0)
    .map((row) => row.accountId);
}
