import type { Tier } from "../../src/access/tiers.ts";
import type { Scope } from "../../src/skills/catalog.ts";
import { capitalize, formatCount, formatDateTime } from "../format.ts";
import { AppLayout, type Viewer } from "../layout.tsx";
import { QuotaMeter } from "../usage/quota-meter.tsx";
import type { InputFreshness } from "../../src/reference/series/freshness.ts";
import { DataFreshnessPanel } from "./data-freshness-panel.tsx";

export interface OverviewProps {
  viewer: Viewer;
  tier: Tier;
  perMinute: number;
  perMonth: number;
  month: string;
  usedThisMonth: number;
  refusedThisMonth: number;
  /** Epoch ms: 00:00 UTC on the 1st of next month. */
  monthResetsAt: number;
  /** Calls the active key could make right now in its minute window (the full limit without a key). */
  minuteRemaining: number;
  minuteResetsAt: number;
  activeKeyDisplayId: string | null;
  skills: readonly Scope[];
  nextTier: Tier | null;
  /** Webhook endpoints Waybill disabled because their deliveries kept failing. */
  failedWebhooks?: readonly { url: string; reason: string }[];
  /** How current the diesel, wage and USDA figures behind answers are. */
  dataFreshness: readonly InputFreshness[];
}

export function OverviewPage(props: OverviewProps) {
  return (
    <AppLayout title="Overview" viewer={props.viewer} section="overview">
      <div class="page-head">
        <h1>Overview</h1>
        <p class="muted">
          You are on the <strong safe>{capitalize(props.tier)}</strong> tier.
        </p>
      </div>
      {(props.failedWebhooks ?? []).map((hook) => (
        <p class="warning" role="alert">
          <span safe>{`Webhook ${hook.url} was disabled: ${hook.reason}`}</span>{" "}
          <a href="/dashboard/webhooks">Fix and enable it</a>.
        </p>
      ))}
      <div class="grid">
        <section class="card">
          <h2>
            This month <span class="muted" safe>{`· ${props.month}`}</span>
          </h2>
          <QuotaMeter
            used={props.usedThisMonth}
            refused={props.refusedThisMonth}
            limit={props.perMonth}
            label="Answered calls this month"
          />
          <p class="muted" safe>
            {`Resets ${formatDateTime(props.monthResetsAt)}.`}
          </p>
        </section>
        <section class="card">
          <h2>Right now</h2>
          <p class="big-number">
            <span safe>{formatCount(props.minuteRemaining)}</span>
            <span class="of" safe>{` of ${formatCount(props.perMinute)}`}</span>
          </p>
          <p class="muted">calls left in the current minute</p>
          {props.minuteRemaining < props.perMinute && (
            <p class="muted" safe>
              {`Back to the full ${formatCount(props.perMinute)} by ${formatDateTime(props.minuteResetsAt)}.`}
            </p>
          )}
        </section>
        <section class="card">
          <h2>Limits</h2>
          <dl class="facts">
            <dt>Per minute</dt>
            <dd safe>{`${formatCount(props.perMinute)} calls, per key`}</dd>
            <dt>Per month</dt>
            <dd safe>{`${formatCount(props.perMonth)} answered calls, per account`}</dd>
          </dl>
          {props.nextTier ? (
            <p class="muted">
              Need more? <a href="/pricing">Compare tiers</a>.
            </p>
          ) : null}
        </section>
        <section class="card">
          <h2>API key</h2>
          {props.activeKeyDisplayId ? (
            <p>
              <code class="key-id" safe>
                {props.activeKeyDisplayId}
              </code>
            </p>
          ) : (
            <p class="muted">No active key yet.</p>
          )}
          <p>
            <a href="/dashboard/keys">Manage your key</a>
          </p>
        </section>
      </div>
      <DataFreshnessPanel inputs={props.dataFreshness} />
      <section class="card">
        <h2>Skills on your tier</h2>
        <ul class="chips">
          {props.skills.map((skill) => (
            <li>{skill}</li>
          ))}
        </ul>
      </section>
    </AppLayout>
  );
}
