import { SUBSCRIBABLE_EVENT_TYPES } from "../../src/events/types.ts";
import type { DeliveryLogEntry, WebhookEndpoint } from "../../src/webhooks/endpoints.ts";
import { DataTable, PostButton } from "../data-table.tsx";
import { Flash } from "../flash.tsx";
import { formatDateTime } from "../format.ts";
import { AppLayout, type Viewer } from "../layout.tsx";

export interface EndpointView {
  endpoint: WebhookEndpoint;
  deliveries: DeliveryLogEntry[];
}

export interface WebhooksPageProps {
  viewer: Viewer;
  endpoints: EndpointView[];
  maxEndpoints: number;
  /** A signing secret right after it was made: shown this once. */
  newSecret?: { endpointId: string; secret: string };
  notice?: string;
  error?: string;
}

/** Webhook endpoints, each with its controls and delivery log. Plain forms; no JavaScript needed. */
export function WebhooksPage(props: WebhooksPageProps) {
  const csrf = props.viewer.csrfToken;
  return (
    <AppLayout title="Webhooks" viewer={props.viewer} section="webhooks">
      <div class="page-head">
        <h1>Webhooks</h1>
        <p class="muted">
          Events are POSTed to your endpoints, signed as Standard Webhooks (<code>webhook-id</code>,{" "}
          <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed deliveries are retried for about 27
          hours; an endpoint that keeps failing for 5 days is disabled.
        </p>
      </div>
      <Flash notice={props.notice} error={props.error} />
      {props.newSecret ? (
        <div class="card new-key" role="status">
          <h2>Signing secret</h2>
          <p>Copy it now: it is shown only this once. Verify every delivery with it.</p>
          <code id="new-webhook-secret" class="secret" safe>
            {props.newSecret.secret}
          </code>
        </div>
      ) : null}
      {props.endpoints.map((view) => (
        <Endpoint view={view} csrf={csrf} />
      ))}
      {props.endpoints.length < props.maxEndpoints ? (
        <CreateEndpointForm csrf={csrf} />
      ) : (
        <p class="muted">You have the most endpoints an account can have.</p>
      )}
    </AppLayout>
  );
}

function Endpoint({ view, csrf }: { view: EndpointView; csrf: string }) {
  const { endpoint, deliveries } = view;
  const base = `/dashboard/webhooks/${endpoint.id}`;
  return (
    <section class="card stack" data-endpoint-id={endpoint.id}>
      <div class="card-head">
        <h2 class="break" safe>
          {endpoint.url}
        </h2>
        {endpoint.enabled ? <span class="badge ok">enabled</span> : <span class="badge">disabled</span>}
      </div>
      {!endpoint.enabled && endpoint.disabledReason ? (
        <p class="warning" safe>
          {endpoint.disabledReason}
        </p>
      ) : null}
      <p class="muted" safe>
        {`Events: ${endpoint.eventTypes.length === 0 ? "all" : endpoint.eventTypes.join(", ")}`}
      </p>
      <div class="actions">
        <PostButton
          csrfToken={csrf}
          action={`${base}/${endpoint.enabled ? "disable" : "enable"}`}
          label={endpoint.enabled ? "Disable" : "Enable"}
        />
        <PostButton csrfToken={csrf} action={`${base}/test`} label="Send test event" />
        <PostButton csrfToken={csrf} action={`${base}/rotate`} label="Rotate secret" />
        <PostButton csrfToken={csrf} action={`${base}/delete`} label="Delete" kind="danger" />
      </div>
      <h3>Deliveries</h3>
      <DataTable
        compact
        label="Deliveries"
        empty="Nothing sent yet."
        columns={[
          { label: "Event" },
          { label: "Status" },
          { label: "Attempts", class: "num" },
          { label: "Response", class: "num" },
          { label: "Last attempt" },
          { label: "" },
        ]}
        rows={deliveries.map((delivery) => (
          <tr data-delivery-id={delivery.id}>
            <td safe>{delivery.eventType}</td>
            <td safe>{delivery.status + (delivery.lastError ? ` (${delivery.lastError})` : "")}</td>
            <td class="num" safe>
              {String(delivery.attempts)}
            </td>
            <td class="num" safe>
              {delivery.lastStatusCode === null ? "–" : String(delivery.lastStatusCode)}
            </td>
            <td safe>{formatDateTime(delivery.lastAttemptAt)}</td>
            <td>
              <PostButton
                csrfToken={csrf}
                action={`/dashboard/webhooks/deliveries/${delivery.id}/resend`}
                label="Resend"
              />
            </td>
          </tr>
        ))}
      />
    </section>
  );
}

function CreateEndpointForm({ csrf }: { csrf: string }) {
  return (
    <form method="post" action="/dashboard/webhooks" class="card stack" id="create-webhook">
      <h2>Add an endpoint</h2>
      <input type="hidden" name="_csrf" value={csrf} />
      <label>
        URL <input name="url" type="url" required placeholder="https://hooks.example.com/waybill" />
      </label>
      <fieldset>
        <legend>Event types (none ticked: all)</legend>
        <div class="scope-grid">
          {SUBSCRIBABLE_EVENT_TYPES.map((type) => (
            <label class="check">
              <input type="checkbox" name="event_types" value={type} />
              <span>{type}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary">
          Add endpoint
        </button>
      </div>
    </form>
  );
}
