import { and, asc, eq, lte } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import { Backoff } from "../db/backoff.ts";
import type { Store } from "../db/client.ts";
import { log } from "../ops/log.ts";
import { first, inTransaction } from "../db/transaction.ts";
import { appendEvent, type EventRecord } from "../events/log.ts";
import { postWebhook, type PostOutcome } from "./http-post.ts";
import { DISABLE_AFTER_FAILING_MS, retryDelay } from "./retry-schedule.ts";
import { signedHeaders } from "./signing.ts";
import type { TargetPolicy } from "./target-policy.ts";

export interface DeliveryWorkerOptions {
  /** Attempts in flight at once, across all endpoints. */
  concurrency?: number;
  /** How often due retries are looked for when nothing wakes the worker. */
  pollMs?: number;
  random?: () => number;
}

/** The Standard Webhooks payload: the same bytes on every attempt, built from the stored event. */
export function webhookBody(event: EventRecord): string {
  return JSON.stringify({
    type: event.type,
    timestamp: new Date(event.createdAt).toISOString(),
    data: { id: event.id, ...event.payload },
  });
}

type DueDelivery = {
  id: string;
  attempts: number;
  endpointId: string;
  url: string;
  secret: string;
  event: EventRecord;
};

/**
 * Sends the outbox off the request path. A delivery stays `pending` until a 2xx is recorded, so a
 * process killed mid-attempt resends it after the restart (receivers de-duplicate on `webhook-id`).
 */
export class DeliveryWorker {
  private readonly inFlight = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly concurrency: number;
  private readonly random: () => number;
  /** After a failed look for due deliveries (the database away), the next waits a while. */
  private readonly backoff = new Backoff();

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly policy: TargetPolicy,
    private readonly options: DeliveryWorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.random = options.random ?? Math.random;
  }

  start(): void {
    this.timer ??= setInterval(() => this.wake(), this.options.pollMs ?? 1000);
    this.wake();
  }

  /** Look for due deliveries now: on every poll, and whenever an attempt frees a slot. */
  private wake(): void {
    if (!this.timer || !this.backoff.ready()) return;
    this.tick().then(
      () => this.backoff.succeeded(),
      (error) => log.failure("webhook_worker_paused", error, { retry_in_ms: this.backoff.failed() }),
    );
  }

  /** Attempt every due delivery, up to the concurrency; resolves when those attempts are recorded. */
  async tick(): Promise<void> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const due = await this.due(free);
    await Promise.all(due.map((delivery) => this.attempt(delivery)));
  }

  /** No new attempts; those running finish and are recorded (a kill instead leaves them pending). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async due(limit: number): Promise<DueDelivery[]> {
    const { events, webhookDeliveries, webhookEndpoints } = this.db.t;
    const rows = await this.db
      .select({
        id: webhookDeliveries.id,
        attempts: webhookDeliveries.attempts,
        endpointId: webhookEndpoints.id,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        event: events,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          lte(webhookDeliveries.nextAttemptAt, this.clock.now()),
          eq(webhookEndpoints.enabled, true),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit + this.inFlight.size);
    return rows.filter((row) => !this.inFlight.has(row.id)).slice(0, limit);
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    this.inFlight.add(delivery.id);
    try {
      const body = webhookBody(delivery.event);
      const headers = signedHeaders(delivery.secret, delivery.id, this.clock.now(), body);
      const outcome = await postWebhook(new URL(delivery.url), headers, body, this.policy);
      await this.record(delivery, outcome);
    } catch (error) {
      // Not recorded (say, the database went away after the POST): still pending, so attempted again later.
      log.failure("webhook_delivery_not_recorded", error, { delivery_id: delivery.id });
    } finally {
      this.inFlight.delete(delivery.id);
      this.wake(); // a backlog drains at the concurrency, not at one batch per poll
    }
  }

  private async record(delivery: DueDelivery, outcome: PostOutcome): Promise<void> {
    const now = this.clock.now();
    const attempts = delivery.attempts + 1;
    const { webhookDeliveries, webhookEndpoints } = this.db.t;
    await inTransaction(this.db, async (tx) => {
      const endpoint = await first(
        tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)),
      );
      if (!endpoint) return; // deleted while the attempt ran
      const base = { attempts, lastAttemptAt: now, lastStatusCode: outcome.statusCode };
      if (outcome.ok) {
        await tx
          .update(webhookDeliveries)
          .set({ ...base, status: "delivered", nextAttemptAt: null, lastError: null })
          .where(eq(webhookDeliveries.id, delivery.id));
        await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
        return;
      }
      const delay = retryDelay(attempts, this.random);
      await tx
        .update(webhookDeliveries)
        .set({
          ...base,
          status: delay === null ? "failed" : "pending",
          nextAttemptAt: delay === null ? null : now + delay,
          lastError: outcome.error,
        })
        .where(eq(webhookDeliveries.id, delivery.id));
      const failingSince = endpoint.failingSince ?? now;
      if (!endpoint.enabled || now - failingSince < DISABLE_AFTER_FAILING_MS) {
        await tx.update(webhookEndpoints).set({ failingSince }).where(eq(webhookEndpoints.id, endpoint.id));
        return;
      }
      const reason = `Every delivery since ${new Date(failingSince).toISOString()} failed (last: ${outcome.error}).`;
      await tx
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: reason, failingSince })
        .where(eq(webhookEndpoints.id, endpoint.id));
      await appendEvent(tx, {
        accountId: endpoint.accountId,
        type: "webhook.disabled",
        payload: { endpoint_id: endpoint.id, url: endpoint.url, reason },
        at: now,
      });
    });
  }
}
