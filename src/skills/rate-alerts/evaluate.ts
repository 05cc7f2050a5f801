import { ApiError } from "../../errors.ts";
import { appendEvent, type Writer } from "../../events/log.ts";
import type { ReferenceView } from "../../reference/storage/view.ts";
import type { AlertRecord, AlertStore } from "./alert-store.ts";
import { measure, type Condition, type Measurement } from "./condition.ts";
import { RATE_ALERTS_MODEL } from "./constants.ts";
import { transition, type Transition } from "./transitions.ts";

export interface Fired {
  alert_id: string;
  event_id: string;
  type: string;
  value: number;
}

export interface EvaluationOutcome {
  evaluated: number;
  fired: Fired[];
  failed: { alert_id: string; error: string }[];
}

/** The figures an evaluation saw, as recorded in its event, so anyone can re-run it. */
export function measurementJson(measurement: Measurement, view: ReferenceView) {
  return {
    value: measurement.value,
    as_of: view.asOf,
    known_at: new Date(view.knownAt).toISOString(),
    factor_versions: measurement.factorVersions,
    ...(measurement.laneRequest && { rate_lookup_request: measurement.laneRequest }),
  };
}

/**
 * Evaluate the account's enabled alerts against one data view, inside the caller's transaction: each
 * alert's new state is stored and every trigger or resolution is appended to the event log (and so
 * to the webhook outbox) in the same transaction. An alert whose figure cannot be priced any more
 * (a series stopped) is reported, not fatal.
 */
export async function evaluateAlerts(
  tx: Writer,
  store: AlertStore,
  accountId: string,
  view: ReferenceView,
  now: number,
): Promise<EvaluationOutcome> {
  const outcome: EvaluationOutcome = { evaluated: 0, fired: [], failed: [] };
  for (const alert of await store.enabled()) {
    let measurement: Measurement;
    try {
      measurement = measure(alert.condition as Condition, view);
    } catch (error) {
      outcome.failed.push({
        alert_id: alert.id,
        error: error instanceof ApiError ? error.message : "could not be evaluated",
      });
      continue;
    }
    outcome.evaluated += 1;
    const step = transition(alert, measurement.value, now);
    await store.update(alert.id, {
      lastValue: measurement.value,
      lastState: step.side,
      firing: step.firing,
      lastEvaluatedAt: now,
      ...(step.event === "alert.triggered" && { lastFiredAt: now }),
    });
    if (!step.event) continue;
    const fired = await recordFiring(tx, accountId, alert, step.event, measurement, view, now);
    outcome.fired.push({ alert_id: alert.id, ...fired, value: measurement.value });
  }
  return outcome;
}

/** A trigger or resolution as an event (and so a webhook delivery), in the caller's transaction. */
export async function recordFiring(
  tx: Writer,
  accountId: string,
  alert: AlertRecord,
  type: NonNullable<Transition["event"]>,
  measurement: Measurement,
  view: ReferenceView,
  now: number,
): Promise<{ event_id: string; type: string }> {
  const event = await appendEvent(tx, {
    accountId,
    type,
    payload: alertEventPayload(alert, measurement, view),
    at: now,
  });
  return { event_id: event.id, type };
}

function alertEventPayload(alert: AlertRecord, measurement: Measurement, view: ReferenceView) {
  return {
    alert_id: alert.id,
    name: alert.name,
    condition: alert.condition,
    direction: alert.direction,
    threshold: alert.threshold,
    measurement: measurementJson(measurement, view),
    model_version: RATE_ALERTS_MODEL.version,
  };
}
