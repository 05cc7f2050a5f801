import type { eventJson } from "../../src/events/log.ts";
import { EVENT_TYPES } from "../../src/events/types.ts";
import { eventSummary } from "./event-summary.ts";
import { DataTable } from "../data-table.tsx";
import { AppLayout, type Viewer } from "../layout.tsx";

export interface EventsPageProps {
  viewer: Viewer;
  events: ReturnType<typeof eventJson>[];
  type: string | undefined;
}

/** A readable summary of one event, with its JSON (as the API and webhooks send it) one click away. */
function EventDetails({ type, data }: { type: string; data: Record<string, unknown> }) {
  const summary = eventSummary(type, data);
  return (
    <>
      <p class="event-headline" safe>
        {summary.headline}
      </p>
      {summary.facts.length > 0 ? (
        <dl class="event-facts">
          {summary.facts.map(([label, value]) => (
            <>
              <dt class="event-fact-label" safe>
                {label}
              </dt>
              <dd class="event-fact-value" safe>
                {value}
              </dd>
            </>
          ))}
        </dl>
      ) : null}
      <details>
        <summary>JSON</summary>
        <code class="break" safe>
          {JSON.stringify(data)}
        </code>
      </details>
    </>
  );
}

/** The account's event log, newest first, filterable by type (a GET form: works without JavaScript). */
export function EventsPage(props: EventsPageProps) {
  return (
    <AppLayout title="Events" viewer={props.viewer} section="events">
      <div class="page-head">
        <h1>Events</h1>
        <p class="muted">
          What happened in your account, newest first. The same log is at <code>GET /v1/events</code> and is sent to
          your webhooks.
        </p>
      </div>
      <form method="get" action="/dashboard/events" class="card">
        <label>
          Type
          <select name="type">
            <option value="">all</option>
            {EVENT_TYPES.map((type) => (
              <option value={type} selected={type === props.type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      <section class="card" id="event-feed">
        <DataTable
          label="Events"
          empty="No events yet."
          columns={[{ label: "Time" }, { label: "Type" }, { label: "Details" }]}
          rows={props.events.map((event) => (
            <tr data-event-id={event.id}>
              <td class="nowrap" safe>
                {event.created_at.slice(0, 19).replace("T", " ")}
              </td>
              <td safe>{event.type}</td>
              <td>
                <EventDetails type={event.type} data={event.data} />
              </td>
            </tr>
          ))}
        />
      </section>
    </AppLayout>
  );
}
