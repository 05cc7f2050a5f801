import type { Static } from "@sinclair/typebox";
import type { Tier } from "../../access/tiers.ts";
import { errors } from "../../errors.ts";
import type { Writer } from "../../events/log.ts";
import type { ReferenceView } from "../../reference/storage/view.ts";
import { alertJson, AlertStore, type AlertDefinition, type AlertRecord } from "./alert-store.ts";
import { checkConditionFields, measure, type Condition } from "./condition.ts";
import { DEFAULT_PAGE_SIZE, MAX_ALERTS_BY_TIER } from "./constants.ts";
import { evaluateAlerts, measurementJson, recordFiring, type EvaluationOutcome } from "./evaluate.ts";
import type { createInput, listInput, updateInput } from "./schema.ts";
import { transition } from "./transitions.ts";

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
 * without data) is refused at creation with rate-lookup's own error. That pricing is the alert's first
 * evaluation: an ABOVE or BELOW condition that already holds fires at once (docs/alerts-and-webhooks.md);
 * CROSSES has no earlier side yet, so its first value is only the baseline.
 */
function firstEvaluation(
  definition: AlertDefinition,
  view: ReferenceView,
  now: number,
  previous: { enabled: boolean; lastFiredAt: number | null },
) {
  checkConditionFields(definition.condition);
  const measurement = measure(definition.condition, view);
  const evaluated = transition({ ...definition, lastState: null, firing: false, ...previous }, measurement.value, now);
  // A disabled alert is not evaluated: it keeps the side it saw and fires once enabled, if still true.
  const step = previous.enabled ? evaluated : { event: null, side: evaluated.side, firing: false };
  const state = {
    lastValue: measurement.value,
    lastState: step.side,
    firing: step.firing,
    lastEvaluatedAt: now,
    ...(step.event && { lastFiredAt: now }),
  };
  return { measurement, state, event: step.event };
}

/** Where an operation stores an alert: the account's store, its transaction, the data view and the call's time. */
interface Writing {
  tx: Writer;
  store: AlertStore;
  accountId: string;
  view: ReferenceView;
  now: number;
}

/** Store the alert's changes with its first evaluation's state and record its trigger, if any; the answer names the event. */
async function settle(
  at: Writing,
  id: string,
  changes: Parameters<AlertStore["update"]>[1],
  first: ReturnType<typeof firstEvaluation> | undefined,
) {
  const alert = await at.store.update(id, { ...changes, ...first?.state });
  const fired = first?.event
    ? await recordFiring(at.tx, at.accountId, alert, first.event, first.measurement, at.view, at.now)
    : undefined;
  return { alert: alertJson(alert), ...(fired && { fired }) };
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
  const first = firstEvaluation(definition, view, now, { enabled: true, lastFiredAt: null });
  const created = await store.insert(definition, now);
  const settled = await settle({ tx, store, accountId: caller.accountId, view, now }, created.id, {}, first);
  return { ...settled, measurement: measurementJson(first.measurement, view) };
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
  const fresh = repriced
    ? firstEvaluation(definition, view, now, {
        enabled: input.enabled ?? current.enabled,
        lastFiredAt: current.lastFiredAt,
      })
    : undefined;
  const changes = { ...definition, ...(input.enabled !== undefined && { enabled: input.enabled }), updatedAt: now };
  const settled = await settle({ tx, store, accountId: caller.accountId, view, now }, current.id, changes, fresh);
  return { ...settled, ...(fresh && { measurement: measurementJson(fresh.measurement, view) }) };
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
