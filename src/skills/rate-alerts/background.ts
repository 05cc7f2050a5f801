import type { Clock } from "../../clock.ts";
import { Backoff } from "../../db/backoff.ts";
import type { Store } from "../../db/client.ts";
import { log } from "../../ops/log.ts";
import { inTransaction } from "../../db/transaction.ts";
import { recordDataUpdates } from "../../events/data-updates.ts";
import type { ReferenceData } from "../../reference/storage/view.ts";
import { accountsWithAlerts, AlertStore } from "./alert-store.ts";
import { evaluateAlerts, type EvaluationOutcome } from "./evaluate.ts";

/** How often `serve` re-evaluates every alert even when no data arrived (the date moves figures too). */
export const SCHEDULED_EVALUATION_MS = 15 * 60_000;
/** How often `serve` looks for observations another process added (one indexed max() read). */
export const DATA_CHECK_MS = 2_000;

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Alert evaluation off the request path, inside `serve`: whenever observations were added (any way:
 * an import in another process, a sync, while the server was down) and on a fixed schedule. Each run
 * is one transaction: the `data.updated` events, every alert's new state and every trigger or
 * resolution with its webhook deliveries commit together or not at all.
 */
export class AlertBackground {
  private timers: ReturnType<typeof setInterval>[] = [];
  private pending: ReturnType<typeof setTimeout> | undefined;
  private readonly backoff = new Backoff();

  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
    private readonly reference: ReferenceData,
    /** Before a run: lets the runtime reload what another process changed. */
    private readonly refresh: () => void,
  ) {}

  /** One run: announce new data if any, then evaluate every account's alerts if data arrived or `always`. */
  async run(always: boolean): Promise<{ dataUpdated: boolean; outcomes: Map<string, EvaluationOutcome> }> {
    this.refresh();
    const now = this.clock.now();
    return inTransaction(this.db, async (tx) => {
      const update = await recordDataUpdates(tx, now);
      const outcomes = new Map<string, EvaluationOutcome>();
      if (!update && !always) return { dataUpdated: false, outcomes };
      const view = this.reference.view(utcDate(now), now);
      for (const accountId of await accountsWithAlerts(tx)) {
        outcomes.set(accountId, await evaluateAlerts(tx, new AlertStore(tx, accountId), accountId, view, now));
      }
      return { dataUpdated: update !== undefined, outcomes };
    });
  }

  /** Data may have been added (the reference store reloaded): check soon, off the caller's path. */
  dataMayHaveChanged(): void {
    if (this.timers.length === 0 || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.safely(false);
    }, 0);
  }

  start(): void {
    this.safely(false);
    this.timers.push(
      setInterval(() => this.safely(false), DATA_CHECK_MS),
      setInterval(() => this.safely(true), SCHEDULED_EVALUATION_MS),
    );
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    if (this.pending) clearTimeout(this.pending);
  }

  /** A run that failed (the database away) makes the timers skip runs for a while instead of failing each second. */
  private safely(always: boolean): void {
    if (!this.backoff.ready()) return;
    this.run(always).then(
      () => this.backoff.succeeded(),
      (error) => log.failure("alert_evaluation_failed", error, { retry_in_ms: this.backoff.failed() }),
    );
  }
}
