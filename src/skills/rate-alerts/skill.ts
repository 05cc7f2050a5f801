import type { Static, TSchema } from "@sinclair/typebox";
import { defineOperationsSkill, type AnySkill, type OperationsSkill, type SkillContext } from "../types.ts";
import { alertJson } from "./alert-store.ts";
import { RATE_ALERTS_MODEL } from "./constants.ts";
import {
  createAlert,
  deleteAlert,
  evaluateNow,
  getAlert,
  listAlerts,
  updateAlert,
  type AlertCaller,
} from "./operations.ts";
import {
  alertOutput,
  createInput,
  deleteOutput,
  evaluateInput,
  evaluateOutput,
  idInput,
  listInput,
  listOutput,
  updateInput,
} from "./schema.ts";

type StoreContext = SkillContext & Required<Pick<SkillContext, "store">>;

/** One operation as this folder writes it; operation() adds what all six share. */
interface Operation<I extends TSchema, O extends TSchema> {
  operation: string;
  description: string;
  rest: AnySkill["rest"];
  input: I;
  output: O;
  /** Returns the answer; runs inside the answer's transaction with the account's alerts at hand. */
  handler(input: Static<I>, context: StoreContext, caller: AlertCaller): Promise<unknown>;
}

/**
 * Every operation writes (or reads what others write) in the answer's transaction, and none is re-run
 * by an audit: its answer depends on the account's alerts, not only on reference data. The receipt
 * records the factor versions of the figure an answer priced (create, update).
 */
function operation<I extends TSchema, O extends TSchema>(
  declaration: Operation<I, O>,
): OperationsSkill["operations"][number] {
  const { handler, ...shared } = declaration;
  return {
    ...shared,
    replayable: false,
    async write(input, context) {
      const caller: AlertCaller = { accountId: context.caller.accountId, tier: context.caller.tier };
      const answer = await handler(input as Static<I>, context, caller);
      const measured = (answer as { measurement?: { factor_versions: [] } }).measurement;
      return { answer, factorVersions: measured?.factor_versions ?? [], modelVersion: RATE_ALERTS_MODEL.version };
    },
  };
}

/**
 * rate-alerts: thresholds on a lane's price or on diesel, evaluated whenever data arrives, on a
 * schedule and on demand (docs/alerts-and-webhooks.md). One skill, six operations.
 */
export const rateAlertsSkill = defineOperationsSkill({
  name: "rate-alerts",
  minimumTier: "starter",
  description:
    "Threshold alerts on a lane's rate or total cost and on regional diesel, with events and signed webhooks when they fire.",
  operations: [
    operation({
      operation: "create",
      description:
        "Create an alert: a threshold (ABOVE, BELOW or CROSSES) on a lane's rate_per_mile or total_cost, a region's weekly diesel price, or its week-over-week change in percent. The condition is priced now; one that cannot be priced is refused.",
      rest: { method: "POST", path: "/v1/alerts" },
      input: createInput,
      output: alertOutput,
      handler: (input, { data, store }, caller) => createAlert(store.tx, caller, input, data, store.now),
    }),
    operation({
      operation: "list",
      description: "List the account's alerts, newest first, a page at a time (pass next_cursor as cursor).",
      rest: { method: "GET", path: "/v1/alerts" },
      input: listInput,
      output: listOutput,
      handler: (input, { store }, caller) => listAlerts(store.tx, caller, input),
    }),
    operation({
      operation: "get",
      description: "One of the account's alerts with its current state.",
      rest: { method: "GET", path: "/v1/alerts/:id" },
      input: idInput,
      output: alertOutput,
      handler: async (input, { store }, caller) => ({ alert: alertJson(await getAlert(store.tx, caller, input.id)) }),
    }),
    operation({
      operation: "update",
      description:
        "Change an alert's name, condition, direction, threshold, cooldown or enabled flag. A new condition, direction or threshold is priced again and starts from a fresh baseline.",
      rest: { method: "PATCH", path: "/v1/alerts/:id" },
      input: updateInput,
      output: alertOutput,
      handler: (input, { data, store }, caller) => updateAlert(store.tx, caller, input, data, store.now),
    }),
    operation({
      operation: "delete",
      description: "Delete one of the account's alerts.",
      rest: { method: "DELETE", path: "/v1/alerts/:id" },
      input: idInput,
      output: deleteOutput,
      handler: (input, { store }, caller) => deleteAlert(store.tx, caller, input.id),
    }),
    operation({
      operation: "evaluate",
      description:
        "Evaluate the account's alerts now against the latest data; returns what fired (alert.triggered / alert.resolved, also in GET /v1/events and sent to webhooks).",
      rest: { method: "POST", path: "/v1/alerts/evaluate" },
      input: evaluateInput,
      output: evaluateOutput,
      handler: (_input, { data, store }, caller) => evaluateNow(store.tx, caller, data, store.now),
    }),
  ],
});
