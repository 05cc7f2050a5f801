import { DIESEL_REGION_NAMES } from "../../src/reference/geo/regions.ts";
import type { alertJson } from "../../src/skills/rate-alerts/alert-store.ts";
import { DIRECTIONS, WATCHED_METRICS } from "../../src/skills/rate-alerts/constants.ts";
import { EQUIPMENT_TYPES } from "../../src/skills/kit.ts";
import { DataTable, PostButton } from "../data-table.tsx";
import { Flash } from "../flash.tsx";
import { AppLayout, type Viewer } from "../layout.tsx";

export type AlertView = ReturnType<typeof alertJson>;

export interface AlertsPageProps {
  viewer: Viewer;
  alerts: AlertView[];
  /** How many alerts the tier allows; 0 means the tier has no alerts at all. */
  cap: number;
  notice?: string;
  error?: string;
}

function conditionText(alert: AlertView): string {
  const c = alert.condition;
  const where = c.origin ? `${c.origin} → ${c.destination}, ${c.equipment}${c.mode ? ` ${c.mode}` : ""}` : c.region;
  return `${c.metric} (${where})`;
}

/** Alerts: the list with each one's state, a form to add one, and "evaluate now". Plain forms; no JavaScript needed. */
export function AlertsPage(props: AlertsPageProps) {
  return (
    <AppLayout title="Alerts" viewer={props.viewer} section="alerts">
      <div class="page-head">
        <h1>Alerts</h1>
        <p class="muted">
          Thresholds on a lane's price or on diesel, checked whenever new data arrives, every 15 minutes, and on demand.
          Each trigger is an event (see Events) and is sent to your webhooks.
        </p>
      </div>
      <Flash notice={props.notice} error={props.error} />
      {props.cap === 0 ? (
        <div class="card">
          <p>
            Alerts need the Starter tier or higher. <a href="/pricing">See the tiers</a>.
          </p>
        </div>
      ) : (
        <>
          <AlertList alerts={props.alerts} cap={props.cap} csrfToken={props.viewer.csrfToken} />
          <CreateAlertForm csrfToken={props.viewer.csrfToken} />
        </>
      )}
    </AppLayout>
  );
}

function AlertList({ alerts, cap, csrfToken }: { alerts: AlertView[]; cap: number; csrfToken: string }) {
  return (
    <section class="card stack" id="alert-list">
      <div class="card-head">
        <h2 safe>{`Your alerts (${alerts.length} of ${cap})`}</h2>
        <PostButton csrfToken={csrfToken} action="/dashboard/alerts/evaluate" label="Evaluate now" />
      </div>
      <DataTable
        label="Your alerts"
        empty="No alerts yet."
        columns={[
          { label: "Name" },
          { label: "Watches" },
          { label: "Rule" },
          { label: "Last value", class: "num" },
          { label: "State" },
          { label: "" },
        ]}
        rows={alerts.map((alert) => (
          <tr data-alert-id={alert.id}>
            <td safe>{alert.name}</td>
            <td safe>{conditionText(alert)}</td>
            <td
              safe
            >{`${alert.direction} ${alert.threshold}${alert.cooldown_seconds ? `, quiet ${alert.cooldown_seconds} s after firing` : ""}`}</td>
            <td class="num" safe>
              {alert.state.last_value === null ? "–" : String(alert.state.last_value)}
            </td>
            <td>
              {!alert.enabled ? (
                <span class="badge">paused</span>
              ) : alert.state.firing ? (
                <span class="badge warn">firing</span>
              ) : (
                <span class="badge ok">watching</span>
              )}
            </td>
            <td class="actions">
              <PostButton
                csrfToken={csrfToken}
                action={`/dashboard/alerts/${alert.id}/${alert.enabled ? "pause" : "resume"}`}
                label={alert.enabled ? "Pause" : "Resume"}
              />
              <PostButton
                csrfToken={csrfToken}
                action={`/dashboard/alerts/${alert.id}/delete`}
                label="Delete"
                kind="danger"
              />
            </td>
          </tr>
        ))}
      />
    </section>
  );
}

function Options({ values, blank }: { values: readonly string[]; blank?: string }) {
  return (
    <>
      {blank !== undefined ? (
        <option value="" safe>
          {blank}
        </option>
      ) : null}
      {values.map((value) => (
        <option value={value} safe>
          {value}
        </option>
      ))}
    </>
  );
}

function CreateAlertForm({ csrfToken }: { csrfToken: string }) {
  return (
    <form method="post" action="/dashboard/alerts" class="card stack" id="create-alert">
      <h2>Add an alert</h2>
      <input type="hidden" name="_csrf" value={csrfToken} />
      <label>
        Name <input name="name" maxlength="100" placeholder="optional" />
      </label>
      <label>
        Watch
        <select name="metric" required>
          <Options values={WATCHED_METRICS} />
        </select>
      </label>
      <fieldset>
        <legend>Lane (for rate_per_mile and total_cost)</legend>
        <label>
          Origin <input name="origin" placeholder="Chicago, IL" />
        </label>
        <label>
          Destination <input name="destination" placeholder="Dallas, TX" />
        </label>
        <label>
          Equipment
          <select name="equipment">
            <Options values={EQUIPMENT_TYPES} blank="—" />
          </select>
        </label>
      </fieldset>
      <fieldset>
        <legend>Region (for diesel_price and diesel_change_percent)</legend>
        <label>
          Diesel region
          <select name="region">
            <Options values={DIESEL_REGION_NAMES} blank="—" />
          </select>
        </label>
      </fieldset>
      <label>
        When it goes
        <select name="direction" required>
          <Options values={DIRECTIONS} />
        </select>
      </label>
      <label>
        Threshold <input name="threshold" inputmode="decimal" required />
      </label>
      <label>
        Cooldown in seconds <input name="cooldown_seconds" inputmode="numeric" placeholder="optional" />
      </label>
      <div class="actions">
        <button type="submit" class="primary">
          Add alert
        </button>
      </div>
    </form>
  );
}
