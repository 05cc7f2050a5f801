import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { events, webhookDeliveries, webhookEndpoints } from "../db/schema.ts";
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
  const unknown = types.filter((type) => !isEventType(type) || !(SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) throw new WebhookSettingsError(`Unknown event type ${unknown.join(", ")}; choose from ${SUBSCRIBABLE_EVENT_TYPES.join(", ")}.`);
  return [...new Set(types)];
}

/** Add an endpoint; the returned secret is shown to the account holder once. */
export function createEndpoint(db: Db, accountId: string, input: { url: string; eventTypes: string[]; allowPrivate: boolean; now: number }) {
  let url: URL;
  try {
    url = parseWebhookUrl(input.url, input.allowPrivate);
  } catch (error) {
    if (error instanceof WebhookTargetError) throw new WebhookSettingsError(`The URL ${error.message}.`);
    throw error;
  }
  const eventTypes = checkEventTypes(input.eventTypes);
  return db.transaction(
    (tx) => {
      const count = tx.select({ n: sql<number>`count(*)` }).from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId)).get()!.n;
      if (count >= MAX_ENDPOINTS_PER_ACCOUNT) throw new WebhookSettingsError(`An account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints.`);
      const secret = generateSecret();
      const endpoint = tx
        .insert(webhookEndpoints)
        .values({ id: newId("wh", input.now), accountId, url: url.href, eventTypes, secret, createdAt: input.now })
        .returning()
        .get();
      return { endpoint, secret };
    },
    { behavior: "immediate" },
  );
}

export function endpointsOf(db: Db, accountId: string): WebhookEndpoint[] {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId)).orderBy(desc(webhookEndpoints.createdAt)).all();
}

/** The account's own endpoint, or undefined: another account's endpoint is never found. */
export function endpointOf(db: Db, accountId: string, endpointId: string): WebhookEndpoint | undefined {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.accountId, accountId)))
    .get();
}

function ownEndpoint(db: Db, accountId: string, endpointId: string): WebhookEndpoint {
  const endpoint = endpointOf(db, accountId, endpointId);
  if (!endpoint) throw new WebhookSettingsError("No such webhook endpoint.");
  return endpoint;
}

/** Endpoints Waybill disabled because they kept failing (not those the holder switched off), for a dashboard notice. */
export function disabledForFailing(db: Db, accountId: string): { url: string; reason: string }[] {
  return endpointsOf(db, accountId)
    .filter((endpoint) => !endpoint.enabled && endpoint.failingSince !== null && endpoint.disabledReason !== null)
    .map((endpoint) => ({ url: endpoint.url, reason: endpoint.disabledReason! }));
}

/** Enabling clears the failure streak, so a fixed receiver gets its pending deliveries at once. */
export function setEndpointEnabled(db: Db, accountId: string, endpointId: string, enabled: boolean): void {
  ownEndpoint(db, accountId, endpointId);
  db.update(webhookEndpoints)
    .set(enabled ? { enabled, disabledReason: null, failingSince: null } : { enabled, disabledReason: "Disabled by the account holder.", failingSince: null })
    .where(eq(webhookEndpoints.id, endpointId))
    .run();
}

/** A new secret takes effect on the next attempt, retries included; the old one stops working at once. */
export function rotateSecret(db: Db, accountId: string, endpointId: string): string {
  ownEndpoint(db, accountId, endpointId);
  const secret = generateSecret();
  db.update(webhookEndpoints).set({ secret }).where(eq(webhookEndpoints.id, endpointId)).run();
  return secret;
}

export function deleteEndpoint(db: Db, accountId: string, endpointId: string): void {
  ownEndpoint(db, accountId, endpointId);
  db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)).run();
}

/** A `webhook.test` event sent to this endpoint only, through the outbox like any other. */
export function sendTestEvent(db: Db, accountId: string, endpointId: string, now: number) {
  const endpoint = ownEndpoint(db, accountId, endpointId);
  if (!endpoint.enabled) throw new WebhookSettingsError("Enable the endpoint before sending it a test event.");
  return db.transaction((tx) =>
    appendEvent(tx, { accountId, type: "webhook.test", payload: { endpoint_id: endpointId, message: "A test event from Waybill." }, at: now }, endpointId),
  );
}

/** Send one delivery again from the start of the retry schedule, under the same `webhook-id`. */
export function resendDelivery(db: Db, accountId: string, deliveryId: string, now: number): void {
  const delivery = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.accountId, accountId)))
    .get();
  if (!delivery) throw new WebhookSettingsError("No such delivery.");
  db.update(webhookDeliveries).set({ status: "pending", attempts: 0, nextAttemptAt: now }).where(eq(webhookDeliveries.id, deliveryId)).run();
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
export function deliveryLog(db: Db, accountId: string, endpointId: string, limit = 50): DeliveryLogEntry[] {
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
    .limit(limit)
    .all();
}
