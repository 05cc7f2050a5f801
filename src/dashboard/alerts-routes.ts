import { Elysia } from "elysia";
import { AlertsPage } from "../../views/alerts/alerts-page.tsx";
import type { Writer } from "../events/log.ts";
import { inTransaction } from "../db/transaction.ts";
import { ApiError } from "../errors.ts";
import { alertJson, AlertStore } from "../skills/rate-alerts/alert-store.ts";
import { MAX_ALERTS_BY_TIER } from "../skills/rate-alerts/constants.ts";
import {
  createAlert,
  deleteAlert,
  evaluateNow,
  getAlert,
  updateAlert,
  type AlertCaller,
} from "../skills/rate-alerts/operations.ts";
import { createInput } from "../skills/rate-alerts/schema.ts";
import { validateInput } from "../pipeline/validate.ts";
import type { DashboardContext } from "./context.ts";
import { sessionGuard, type SignedIn } from "./guard.ts";
import { pageResponse } from "./render.ts";

type Outcome = { notice?: string; error?: string };

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** An API refusal in one line for the page: the message, and the fields it names. */
function refusalText(error: ApiError): string {
  const details = (error.extra.details as { field: string; problem: string }[] | undefined) ?? [];
  return [error.message, ...details.map((detail) => `${detail.field} ${detail.problem}`)].join(" ");
}

/** The create form's fields as the API's create input: blank fields are left out, numbers parsed. */
function formToInput(body: Record<string, unknown>): Record<string, unknown> {
  const text = (name: string) =>
    typeof body[name] === "string" && (body[name] as string).trim() !== "" ? (body[name] as string).trim() : undefined;
  const number = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
  const condition = Object.fromEntries(
    Object.entries({
      metric: text("metric"),
      origin: text("origin"),
      destination: text("destination"),
      equipment: text("equipment"),
      region: text("region"),
    }).filter(([, value]) => value !== undefined),
  );
  return Object.fromEntries(
    Object.entries({
      name: text("name"),
      condition,
      direction: text("direction"),
      threshold: number("threshold"),
      cooldown_seconds: number("cooldown_seconds"),
    }).filter(([, value]) => value !== undefined),
  );
}

/**
 * Alerts in the dashboard: the same operations as the API (operations.ts), so validation, pricing,
 * caps and events are identical; a dashboard change is the account holder's own, so it is not metered.
 */
export function alertsRoutes(context: DashboardContext) {
  const render = async ({ account, viewer }: SignedIn, outcome: Outcome, status = 200) => {
    const alerts = (
      await new AlertStore(context.db, account.id).page(MAX_ALERTS_BY_TIER[account.tier] || 1)
    ).alerts.map(alertJson);
    return pageResponse(AlertsPage({ viewer, alerts, cap: MAX_ALERTS_BY_TIER[account.tier], ...outcome }), { status });
  };
  /** Run one change in a transaction; an API refusal becomes a message on the page. */
  const change = async (signedIn: SignedIn, run: (tx: Writer, caller: AlertCaller) => Promise<string>) => {
    try {
      const caller: AlertCaller = { accountId: signedIn.account.id, tier: signedIn.account.tier };
      const notice = await inTransaction(context.db, (tx) => run(tx, caller));
      return await render(signedIn, { notice });
    } catch (error) {
      if (error instanceof ApiError) return render(signedIn, { error: refusalText(error) }, error.status);
      throw error;
    }
  };
  const view = (now: number) => context.reference.view(utcDate(now), now);

  return new Elysia({ name: "dashboard-alerts" })
    .use(sessionGuard(context))
    .get("/dashboard/alerts", ({ signedIn }) => render(signedIn, {}), { signedIn: "account" })
    .post(
      "/dashboard/alerts",
      ({ body, signedIn }) =>
        change(signedIn, async (tx, caller) => {
          const input = validateInput(createInput, formToInput(body as Record<string, unknown>), "body") as Parameters<
            typeof createAlert
          >[2];
          const created = await createAlert(tx, caller, input, view(signedIn.now), signedIn.now);
          const firing = created.fired ? " The condition already holds: it fired." : "";
          return `Alert “${created.alert.name}” added; the figure is ${created.measurement.value} now.${firing}`;
        }),
      { signedIn: "account" },
    )
    .post(
      "/dashboard/alerts/evaluate",
      ({ body, signedIn }) =>
        change(signedIn, async (tx, caller) => {
          void body; // Elysia parses a form body only for handlers that read it; the session guard needs its CSRF field.

          const outcome = await evaluateNow(tx, caller, view(signedIn.now), signedIn.now);
          return `Evaluated ${outcome.evaluated} alert(s); ${outcome.fired.length} fired.`;
        }),
      { signedIn: "account" },
    )
    .post(
      "/dashboard/alerts/:id/:action",
      ({ body, params, signedIn, status }) => {
        void body; // Elysia parses a form body only for handlers that read it; the session guard needs its CSRF field.

        if (!["pause", "resume", "delete"].includes(params.action)) return status(404, "");
        return change(signedIn, async (tx, caller) => {
          if (params.action === "delete") {
            const name = (await getAlert(tx, caller, params.id)).name;
            await deleteAlert(tx, caller, params.id);
            return `Alert “${name}” deleted.`;
          }
          const enabled = params.action === "resume";
          await updateAlert(tx, caller, { id: params.id, enabled }, view(signedIn.now), signedIn.now);
          return enabled ? "Alert resumed." : "Alert paused.";
        });
      },
      { signedIn: "account" },
    );
}
