/** Every event type the log holds (docs/alerts-and-webhooks.md). Webhook endpoints subscribe to these names. */
export const EVENT_TYPES = [
  "alert.triggered",
  "alert.resolved",
  "data.updated",
  "key.created",
  "key.revoked",
  "quota.threshold",
  "webhook.disabled",
  "webhook.test",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** Types an account may subscribe an endpoint to: a disabled endpoint cannot be told it was disabled. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter(
  (type) => type !== "webhook.disabled" && type !== "webhook.test",
);
