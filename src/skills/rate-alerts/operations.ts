import type { Static } from "@sinclair/typebox";
import type { Tier } from "../../access/tiers.ts";
import { ApiError, errors } from "../../errors.ts";
import type { Writer } from "../../events/log.ts";
import type { ReferenceView } from "../../reference/storage/view.ts";
import { alertJson, AlertStore, type AlertDefinition, type AlertRecord } from "./alert-store.ts";
import { checkConditionFields, measure, type Condition } from "./condition.ts";
import { DEFAULT_PAGE_SIZE, MAX_ALERTS_BY_TIER } from "./constants.ts";
import { evaluateAlerts, measurementJson, type EvaluationOutcome } from "./evaluate.ts";
import type { createInput, listInput, updateInput } from "./schema.ts";
import { sideOf } from "./transitions.ts";

/** The caller's alerts and what they may do with them; the API and the dashboard share it, so their rules cannot differ. */
export interface AlertCaller {
  accountId: string;
  tier: Tier;
}

const notFound = (id: string) => errors.notFound(`No alert '${id}' in this account.`);

function describe(condition: Condition): string {
  return condition.origin
    ? `${condition.metric} ${condition.origin} → ${condition.destination}`
    : `${condition.metric} ${condition.region}`;
}

/**
 * Price the condition now: a condition that cannot be priced (unknown place, impossible lane, a region
 * without data) is refused at creation with rate-lookup's own error. The first value becomes the
 * alert's baseline: an alert whose condition already holds starts firing without an event, and the
 * caller sees that in the answer.
 */
function baseline(definition: AlertDefinition, view: ReferenceView, now: number) {
  checkConditionFields(definition.condition);
  const measurement = measure(definition.condition, view);
  const side = sideOf(measurement.value, definition.threshold);
  const firing =
    (definition.direction === "ABOVE" && side === "above") || (definition.direction === "BELOW" && side === "below");
  return { measurement, state: { lastValue: measurement.value, lastState: side, firing, lastEvaluatedAt: now } };
}

export async function createAlert(
  tx: Writer,
  caller: AlertCaller,
  input: Static<typeof createInput>,
  view: ReferenceView,
  now: number,
) {
  const store = new AlertStore(tx, caller.accountId);
  const cap = MAX_ALERTS_BY_TIER[caller.tier];
  if ((await store.count()) >= cap) throw errors.alertLimitReached(caller.tier, cap);
  const definition: AlertDefinition = {
    name: input.name ?? describe(input.condition),
    condition: input.condition,
    direction: input.direction,
    threshold: input.threshold,
    cooldownSeconds: input.cooldown_seconds ?? null,
  };
  const { measurement, state } = baseline(definition, view, now);
  const created = await store.insert(definition, now);
  const alert = await store.update(created.id, state);
  return { alert: alertJson(alert), measurement: measurementJson(measurement, view) };
}

export async function listAlerts(tx: Writer, caller: AlertCaller, input: Static<typeof listInput>) {
  const page = await new AlertStore(tx, caller.accountId).page(input.limit ?? DEFAULT_PAGE_SIZE, input.cursor);
  return { alerts: page.alerts.map(alertJson), next_cursor: page.nextCursor };
}

export async function getAlert(tx: Writer, caller: AlertCaller, id: string): Promise<AlertRecord> {
  const alert = await new AlertStore(tx, caller.accountId).find(id);
  if (!alert) throw notFound(id);
  return alert;
}

/** A changed condition, direction or threshold is priced again and starts from a fresh baseline. */
export async function updateAlert(
  tx: Writer,
  caller: AlertCaller,
  input: Static<typeof updateInput>,
  view: ReferenceView,
  now: number,
) {
  const store = new AlertStore(tx, caller.accountId);
  const current = await getAlert(tx, caller, input.id);
  const definition: AlertDefinition = {
    name: input.name ?? current.name,
    condition: input.condition ?? (current.condition as Condition),
    direction: input.direction ?? current.direction,
    threshold: input.threshold ?? current.threshold,
    cooldownSeconds: input.cooldown_seconds === undefined ? current.cooldownSeconds : input.cooldown_seconds,
  };
  const repriced = input.condition !== undefined || input.direction !== undefined || input.threshold !== undefined;
  const fresh = repriced ? baseline(definition, view, now) : undefined;
  const alert = await store.update(current.id, {
    ...definition,
    ...(input.enabled !== undefined && { enabled: input.enabled }),
    ...fresh?.state,
    updatedAt: now,
  });
  return { alert: alertJson(alert), ...(fresh && { measurement: measurementJson(fresh.measurement, view) }) };
}

export async function deleteAlert(tx: Writer, caller: AlertCaller, id: string) {
  if (!(await new AlertStore(tx, caller.accountId).delete(id))) throw notFound(id);
  return { deleted: id };
}

export function evaluateNow(
  tx: Writer,
  caller: AlertCaller,
  view: ReferenceView,
  now: number,
): Promise<EvaluationOutcome> {
  return evaluateAlerts(tx, new AlertStore(tx, caller.accountId), caller.accountId, view, now);
}
