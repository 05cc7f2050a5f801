import { and, asc, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import type { events } from "../db/schema.ts";
import { first } from "../db/transaction.ts";
import { errors } from "../errors.ts";
import { newId } from "../ids.ts";
import type { EventType } from "./types.ts";

/** A database handle or an open transaction: appends join whatever transaction the caller is in. */
export type Writer = Store;

export type EventRecord = typeof events.$inferSelect;

export interface NewEvent {
  accountId: string;
  type: EventType;
  payload: Record<string, unknown>;
  at: number;
}

/**
 * Append an event and, in the same transaction, one pending delivery for every enabled endpoint of
 * the account subscribed to its type: the outbox. A crash after the commit loses nothing, since the
 * delivery worker sends whatever is pending; a crash before it leaves neither the event nor a delivery.
 */
export async function appendEvent(tx: Writer, event: NewEvent, onlyEndpointId?: string): Promise<EventRecord> {
  const { events, webhookDeliveries, webhookEndpoints } = tx.t;
  const [record] = await tx
    .insert(events)
    .values({
      id: newId("evt", event.at),
      accountId: event.accountId,
      type: event.type,
      payload: event.payload,
      createdAt: event.at,
    })
    .returning();
  if (!record) throw new Error("inserting an event returned no row");
  const endpoints = (
    await tx
      .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.accountId, event.accountId), eq(webhookEndpoints.enabled, true)))
  ).filter((endpoint) =>
    onlyEndpointId
      ? endpoint.id === onlyEndpointId
      : endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(event.type),
  );
  for (const endpoint of endpoints) {
    await tx.insert(webhookDeliveries).values({
      id: newId("msg", event.at),
      endpointId: endpoint.id,
      eventId: record.id,
      status: "pending",
      nextAttemptAt: event.at,
      createdAt: event.at,
    });
  }
  return record;
}

export interface EventPage {
  events: EventRecord[];
  /** Pass as `after` to get what comes next; null when nothing was listed. */
  nextCursor: string | null;
}

/**
 * Oldest first after the cursor (an event id), optionally only some types, for the account of the
 * key `caller` presents. A cursor that is not one of the account's events is a 400. The page is read
 * through the key's row, so a key revoked in the database by then (through another replica or the
 * CLI) lists nothing and is refused, in the same statement (docs/postgresql.md).
 */
export async function listEvents(
  db: Store,
  caller: { accountId: string; keyId: string },
  options: { after?: string; types?: string[]; limit: number },
): Promise<EventPage> {
  const { events, apiKeys } = db.t;
  const { accountId } = caller;
  const afterSeq = options.after
    ? ((
        await first(
          db
            .select({ seq: events.seq })
            .from(events)
            .where(and(eq(events.id, options.after), eq(events.accountId, accountId))),
        )
      )?.seq ?? null)
    : 0;
  if (afterSeq === null)
    throw errors.invalidRequest([{ field: "after", problem: "is not an event id of this account" }]);
  const conditions = [eq(events.accountId, accountId), gt(events.seq, afterSeq)];
  if (options.types && options.types.length > 0) conditions.push(inArray(events.type, options.types));
  // The page (by the account's index, in order) beside the key's row: one row per event, or one row
  // without an event when there is none; no row at all means the key is revoked.
  const page = db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.seq))
    .limit(options.limit)
    .as("page");
  const rows = await db
    .select()
    .from(apiKeys)
    .leftJoin(page, sql`true`)
    .where(and(eq(apiKeys.id, caller.keyId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(page.seq));
  if (rows.length === 0) throw errors.revokedKey();
  const listed = rows.flatMap((row) => (row.page ? [row.page] : []));
  return { events: listed, nextCursor: listed.at(-1)?.id ?? options.after ?? null };
}

/** An event as the API and webhooks show it. */
export function eventJson(event: EventRecord) {
  return { id: event.id, type: event.type, created_at: new Date(event.createdAt).toISOString(), data: event.payload };
}

/** The newest events first, for the dashboard's feed. */
export function recentEvents(
  db: Store,
  accountId: string,
  options: { types?: string[]; limit: number },
): Promise<EventRecord[]> {
  const { events } = db.t;
  const conditions = [eq(events.accountId, accountId)];
  if (options.types && options.types.length > 0) conditions.push(inArray(events.type, options.types));
  return db
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(desc(events.seq))
    .limit(options.limit);
}
