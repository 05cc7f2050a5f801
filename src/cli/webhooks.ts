import { requireAccountByEmail } from "../access/accounts.ts";
import type { Clock } from "../clock.ts";
import type { Store } from "../db/client.ts";
import { createEndpoint, endpointsOf, WebhookSettingsError } from "../webhooks/endpoints.ts";
import { EXIT, ok, UsageError, type CommandResult } from "./result.ts";

/** `waybill webhooks add`: the dashboard's "Add an endpoint" for scripts; prints the signing secret once. */
export async function webhooksAdd(
  db: Store,
  clock: Clock,
  options: { email?: string; url?: string; events?: string; allowPrivate: boolean; json: boolean },
): Promise<CommandResult> {
  if (!options.email || !options.url) throw new UsageError("webhooks add needs --email and --url.");
  const account = await requireAccountByEmail(db, options.email);
  const eventTypes = (options.events ?? "")
    .split(",")
    .map((type) => type.trim())
    .filter(Boolean);
  try {
    const { endpoint, secret } = await createEndpoint(db, account.id, {
      url: options.url,
      eventTypes,
      allowPrivate: options.allowPrivate,
      now: clock.now(),
    });
    const view = { endpoint_id: endpoint.id, url: endpoint.url, event_types: endpoint.eventTypes, secret };
    return ok(
      options.json,
      view,
      `${secret}\nThis signing secret is shown once. Endpoint ${endpoint.id} receives ${eventTypes.length ? eventTypes.join(", ") : "every event type"}.`,
    );
  } catch (error) {
    if (error instanceof WebhookSettingsError) return { exitCode: EXIT.failed, output: error.message };
    throw error;
  }
}

export async function webhooksList(db: Store, options: { email?: string; json: boolean }): Promise<CommandResult> {
  if (!options.email) throw new UsageError("webhooks list needs --email.");
  const account = await requireAccountByEmail(db, options.email);
  const endpoints = (await endpointsOf(db, account.id)).map((endpoint) => ({
    endpoint_id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
  }));
  const text =
    endpoints.map((e) => `${e.endpoint_id}  ${e.enabled ? "enabled " : "disabled"}  ${e.url}`).join("\n") ||
    "no webhook endpoints";
  return ok(options.json, endpoints, text);
}
