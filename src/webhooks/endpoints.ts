import { and, count, desc, eq } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import type { webhookEndpoints } from "../db/schema.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { appendEvent } from "../events/log.ts";
import { isEventType, SUBSCRIBABLE_EVENT_TYPES } from "../events/types.ts";
import { newId } from "../ids.ts";
import { generateSecret } from "./signing.ts";
import { parseWebhookUrl, WebhookTargetError } from "./target-policy.ts";

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;

/** How many endpoints one account may have; each event fans out to all of them. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 5;

/** A change to an account's webhooks that cannot be made, in words for the dashboard. */
export class WebhookSettingsError extends Error {}

function checkEventTypes(types: readonly string[]): string[] {
  const unknown = types.filter(
    (type) => !isEventType(type) || !(SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(type),
  );
  if (unknown.length > 0)
    throw new WebhookSettingsError(
      `Unknown event type ${unknown.join(", ")}; choose from ${SUBSCRIBABLE_EVENT_TYPES.join(", ")}.`,
    );
  return [...new Set(types)];
}

/** Add an endpoint; the returned secret is shown to the account holder once. */
export async function createEndpoint(
  db: Store,
  accountId: string,
  input: { url: string; eventTypes: string[]; allowPrivate: boolean; now: number },
) {
  let url: URL;
  try {
    url = parseWebhookUrl(input.url, input.allowPrivate);
  } catch (error) {
    if (error instanceof WebhookTargetError) throw new WebhookSettingsError(`The URL ${error.message}.`);
    throw error;
  }
  const eventTypes = checkEventTypes(input.eventTypes);
  const { webhookEndpoints } = db.t;
  return inTransaction(db, async (tx) => {
    const [existing] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.accountId, accountId));
    // An aggregate without GROUP BY always returns its one row.
    if ((existing?.n ?? 0) >= MAX_ENDPOINTS_PER_ACCOUNT)
      throw new WebhookSettingsError(`An account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints.`);
    const secret = generateSecret();
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({ id: newId("wh", input.now), accountId, url: url.href, eventTypes, secret, createdAt: input.now })
      .returning();
    if (!endpoint) throw new Error("inserting a webhook endpoint returned no row");
    return { endpoint, secret };
  });
}

export function endpointsOf(db: Store, accountId: string): Promise<WebhookEndpoint[]> {
  const { webhookEndpoints } = db.t;
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.accountId, accountId))
    .orderBy(desc(webhookEndpoints.createdAt));
}

/** The account's own endpoint, or undefined: another account's endpoint is never found. */
export function endpointOf(db: Store, accountId: string, endpointId: string): Promise<WebhookEndpoint | undefined> {
  const { webhookEndpoints } = db.t;
  return first(
    db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.accountId, accountId))),
  );
}

async function ownEndpoint(db: Store, accountId: string, endpointId: string): Promise<WebhookEndpoint> {
  const endpoint = await endpointOf(db, accountId, endpointId);
  if (!endpoint) throw new WebhookSettingsError("No such webhook endpoint.");
  return endpoint;
}

/** Endpoints Waybill disabled because they kept failing (not those the holder switched off), for a dashboard notice. */
export async function disabledForFailing(db: Store, accountId: string): Promise<{ url: string; reason: string }[]> {
  return (await endpointsOf(db, accountId)).flatMap(({ url, enabled, failingSince, disabledReason }) =>
    !enabled && failingSince !== null && disabledReason !== null ? [{ url, reason: disabledReason }] : [],
  );
}

/** Enabling clears the failure streak, so a fixed receiver gets its pending deliveries at once. */
export async function setEndpointEnabled(
  db: Store,
  accountId: string,
  endpointId: string,
  enabled: boolean,
): Promise<void> {
  const { webhookEndpoints } = db.t;
  await inTransaction(db, async (tx) => {
    await ownEndpoint(tx, accountId, endpointId);
    await tx
      .update(webhookEndpoints)
      .set(
        enabled
          ? { enabled, disabledReason: null, failingSince: null }
          : { enabled, disabledReason: "Disabled by the account holder.", failingSince: null },
      )
      .where(eq(webhookEndpoints.id, endpointId));
  });
}

/** A new secret takes effect on the next attempt, retries included; the old one stops working at once. */
export async function rotateSecret(db: Store, accountId: string, endpointId: string): Promise<string> {
  const { webhookEndpoints } = db.t;
  const secret = generateSecret();
  await inTransaction(db, async (tx) => {
    await ownEndpoint(tx, accountId, endpointId);
    await tx.update(webhookEndpoints).set({ secret }).where(eq(webhookEndpoints.id, endpointId));
  });
  return secret;
}

export async function deleteEndpoint(db: Store, accountId: string, endpointId: string): Promise<void> {
  const { webhookEndpoints } = db.t;
  await inTransaction(db, async (tx) => {
    await ownEndpoint(tx, accountId, endpointId);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
  });
}

/** A `webhook.test` event sent to this endpoint only, through the outbox like any other. */
export async function sendTestEvent(db: Store, accountId: string, endpointId: string, now: number) {
  const endpoint = await ownEndpoint(db, accountId, endpointId);
  if (!endpoint.enabled) throw new WebhookSettingsError("Enable the endpoint before sending it a test event.");
  return inTransaction(db, (tx) =>
    appendEvent(
      tx,
      {
        accountId,
        type: "webhook.test",
        payload: { endpoint_id: endpointId, message: "A test event from Waybill." },
        at: now,
      },
      endpointId,
    ),
  );
}

/** Send one delivery again from the start of the retry schedule, under the same `webhook-id`. */
export async function resendDelivery(db: Store, accountId: string, deliveryId: string, now: number): Promise<void> {
  const { webhookDeliveries, webhookEndpoints } = db.t;
  await inTransaction(db, async (tx) => {
    const delivery = await first(
      tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.accountId, accountId))),
    );
    if (!delivery) throw new WebhookSettingsError("No such delivery.");
    await tx
      .update(webhookDeliveries)
      .set({ status: "pending", attempts: 0, nextAttemptAt: now })
      .where(eq(webhookDeliveries.id, deliveryId));
  });
}

export interface DeliveryLogEntry {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  createdAt: number;
}

/** The newest deliveries to one of the account's endpoints. */
export function deliveryLog(db: Store, accountId: string, endpointId: string, limit = 50): Promise<DeliveryLogEntry[]> {
  const { events, webhookDeliveries, webhookEndpoints } = db.t;
  return db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      eventType: events.type,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastError: webhookDeliveries.lastError,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookEndpoints.accountId, accountId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}
