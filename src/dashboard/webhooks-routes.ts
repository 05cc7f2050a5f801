import { Elysia } from "elysia";
import { WebhooksPage, type WebhooksPageProps } from "../../views/webhooks/webhooks-page.tsx";
import {
  createEndpoint,
  deleteEndpoint,
  deliveryLog,
  endpointsOf,
  MAX_ENDPOINTS_PER_ACCOUNT,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  setEndpointEnabled,
  WebhookSettingsError,
} from "../webhooks/endpoints.ts";
import type { DashboardContext } from "./context.ts";
import { sessionGuard, type SignedIn } from "./guard.ts";
import { pageResponse } from "./render.ts";

type Outcome = Pick<WebhooksPageProps, "notice" | "error" | "newSecret">;

/** A form posts one checkbox as a string and several as an array. */
function checked(body: unknown, name: string): string[] {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return typeof value === "string" ? [value] : [];
}

/** Webhook settings: endpoints (secret shown once), enable/disable, rotate, test, delete, the delivery log and resend. */
export function webhooksRoutes(context: DashboardContext) {
  const render = async ({ account, viewer }: SignedIn, outcome: Outcome, status = 200) => {
    const endpoints = await Promise.all(
      (await endpointsOf(context.db, account.id)).map(async (endpoint) => ({
        endpoint,
        deliveries: await deliveryLog(context.db, account.id, endpoint.id, 20),
      })),
    );
    return pageResponse(WebhooksPage({ viewer, endpoints, maxEndpoints: MAX_ENDPOINTS_PER_ACCOUNT, ...outcome }), {
      status,
    });
  };
  const change = async (signedIn: SignedIn, run: () => Promise<Outcome>) => {
    try {
      return await render(signedIn, await run());
    } catch (error) {
      if (error instanceof WebhookSettingsError) return render(signedIn, { error: error.message }, 422);
      throw error;
    }
  };
  const accountOf = (signedIn: SignedIn) => signedIn.account.id;

  return new Elysia({ name: "dashboard-webhooks" })
    .use(sessionGuard(context))
    .get("/dashboard/webhooks", ({ signedIn }) => render(signedIn, {}), { signedIn: "account" })
    .post(
      "/dashboard/webhooks",
      ({ body, signedIn }) =>
        change(signedIn, async () => {
          const url =
            typeof (body as Record<string, unknown>)?.url === "string"
              ? ((body as Record<string, unknown>).url as string)
              : "";
          const { endpoint, secret } = await createEndpoint(context.db, accountOf(signedIn), {
            url,
            eventTypes: checked(body, "event_types"),
            allowPrivate: context.webhookPolicy.allowPrivate,
            now: signedIn.now,
          });
          return { notice: `Endpoint ${endpoint.url} added.`, newSecret: { endpointId: endpoint.id, secret } };
        }),
      { signedIn: "account" },
    )
    .post(
      "/dashboard/webhooks/deliveries/:id/resend",
      ({ body, params, signedIn }) =>
        change(signedIn, async () => {
          void body; // Elysia parses a form body only for handlers that read it; the session guard needs its CSRF field.

          await resendDelivery(context.db, accountOf(signedIn), params.id, signedIn.now);
          return { notice: "The delivery is queued again under the same webhook-id." };
        }),
      { signedIn: "account" },
    )
    .post(
      "/dashboard/webhooks/:id/:action",
      ({ body, params, signedIn, status }) => {
        void body; // Elysia parses a form body only for handlers that read it; the session guard needs its CSRF field.

        const account = accountOf(signedIn);
        const actions: Record<string, () => Promise<Outcome>> = {
          enable: async () => {
            await setEndpointEnabled(context.db, account, params.id, true);
            return { notice: "Endpoint enabled; pending deliveries go out now." };
          },
          disable: async () => {
            await setEndpointEnabled(context.db, account, params.id, false);
            return { notice: "Endpoint disabled; events are kept for it until you enable it." };
          },
          rotate: async () => ({
            notice: "New secret made; the old one no longer signs anything.",
            newSecret: { endpointId: params.id, secret: await rotateSecret(context.db, account, params.id) },
          }),
          test: async () => {
            await sendTestEvent(context.db, account, params.id, signedIn.now);
            return { notice: "Test event queued; see the delivery log below." };
          },
          delete: async () => {
            await deleteEndpoint(context.db, account, params.id);
            return { notice: "Endpoint deleted." };
          },
        };
        const action = actions[params.action];
        return action ? change(signedIn, action) : status(404, "");
      },
      { signedIn: "account" },
    );
}
