import type { Static, TSchema } from "@sinclair/typebox";
import { errors } from "../../http/errors.ts";
import type { AnySkill, SkillContext } from "../types.ts";
import { alertJson } from "./alert-store.ts";
import { RATE_ALERTS_MODEL } from "./constants.ts";
import { createAlert, deleteAlert, evaluateNow, getAlert, listAlerts, updateAlert, type AlertCaller } from "./operations.ts";
import { alertOutput, createInput, deleteOutput, evaluateInput, evaluateOutput, idInput, listInput, listOutput, updateInput } from "./schema.ts";

/** One operation as this folder declares it; operation() adds what all six share. */
interface Operation<I extends TSchema, O extends TSchema> {
  operation: string;
  description: string;
  rest: AnySkill["rest"];
  input: I;
  output: O;
  /** Returns the answer; runs inside the answer's transaction. */
  handler(input: Static<I>, context: Required<SkillContext>): unknown;
}

/** The pieces every rate-alerts operation shares: one skill, one scope, one tier, one set of limits. */
function operation<I extends TSchema, O extends TSchema>(declaration: Operation<I, O>): AnySkill {
  return {
    name: "rate-alerts",
    scope: "rate-alerts",
    minimumTier: "starter",
    writes: true,
    ...declaration,
    handler(input, context) {
      if (!context.store) throw errors.internal(); // the pipeline always passes it to a writing operation
      const answer = declaration.handler(input as Static<I>, context as Required<SkillContext>);
      const measured = (answer as { measurement?: { factor_versions: never[] } }).measurement;
      return { answer, factorVersions: measured?.factor_versions ?? [], modelVersion: RATE_ALERTS_MODEL.version };
    },
  } as AnySkill;
}

const callerOf = (context: SkillContext): AlertCaller => ({ accountId: context.caller.accountId, tier: context.caller.tier });

/**
 * rate-alerts: thresholds on a lane's price or on diesel, evaluated whenever data arrives, on a
 * schedule and on demand (docs/alerts-and-webhooks.md). Six operations of one skill.
 */
export const rateAlertsSkill: AnySkill[] = [
  operation({
    operation: "create",
    description: "Create an alert: a threshold (ABOVE, BELOW or CROSSES) on a lane's rate_per_mile or total_cost, a region's weekly diesel price, or its week-over-week change in percent. The condition is priced now; one that cannot be priced is refused.",
    rest: { method: "POST", path: "/v1/alerts" },
    input: createInput,
    output: alertOutput,
    handler: (input, context) => createAlert(context.store.tx, callerOf(context), input, context.data, context.store.now),
  }),
  operation({
    operation: "list",
    description: "List the account's alerts, newest first, a page at a time (pass next_cursor as cursor).",
    rest: { method: "GET", path: "/v1/alerts" },
    input: listInput,
    output: listOutput,
    handler: (input, context) => listAlerts(context.store.tx, callerOf(context), input),
  }),
  operation({
    operation: "get",
    description: "One of the account's alerts with its current state.",
    rest: { method: "GET", path: "/v1/alerts/:id" },
    input: idInput,
    output: alertOutput,
    handler: (input, context) => ({ alert: alertJson(getAlert(context.store.tx, callerOf(context), input.id)) }),
  }),
  operation({
    operation: "update",
    description: "Change an alert's name, condition, direction, threshold, cooldown or enabled flag. A new condition, direction or threshold is priced again and starts from a fresh baseline.",
    rest: { method: "PATCH", path: "/v1/alerts/:id" },
    input: updateInput,
    output: alertOutput,
    handler: (input, context) => updateAlert(context.store.tx, callerOf(context), input, context.data, context.store.now),
  }),
  operation({
    operation: "delete",
    description: "Delete one of the account's alerts.",
    rest: { method: "DELETE", path: "/v1/alerts/:id" },
    input: idInput,
    output: deleteOutput,
    handler: (input, context) => deleteAlert(context.store.tx, callerOf(context), input.id),
  }),
  operation({
    operation: "evaluate",
    description: "Evaluate the account's alerts now against the latest data; returns what fired (alert.triggered / alert.resolved, also in GET /v1/events and sent to webhooks).",
    rest: { method: "POST", path: "/v1/alerts/evaluate" },
    input: evaluateInput,
    output: evaluateOutput,
    handler: (_input, context) => evaluateNow(context.store.tx, callerOf(context), context.data, context.store.now),
  }),
];
