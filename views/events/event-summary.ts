/** An event as a person reads it: one sentence, then the facts behind it as label/value pairs. */
export interface EventSummary {
  headline: string;
  facts: [label: string, value: string][];
}

type Data = Record<string, unknown>;

const text = (value: unknown): string =>
  value === null || value === undefined ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value);
const record = (value: unknown): Data => (typeof value === "object" && value !== null ? (value as Data) : {});

/** A lane or a region, as the alert's condition names it. */
function conditionText(condition: Data): string {
  const metric = text(condition.metric).replaceAll("_", " ");
  return condition.origin !== undefined
    ? `${metric}, ${text(condition.origin)} → ${text(condition.destination)} (${text(condition.equipment)})`
    : `${metric}, ${text(condition.region)}`;
}

function alertSummary(type: "alert.triggered" | "alert.resolved", data: Data): EventSummary {
  const measurement = record(data.measurement);
  const verb = type === "alert.triggered" ? "fired" : "resolved";
  return {
    headline: `Alert “${text(data.name)}” ${verb}: ${text(measurement.value)} against ${text(data.direction).toLowerCase()} ${text(data.threshold)}.`,
    facts: [
      ["Condition", conditionText(record(data.condition))],
      ["Data as of", `${text(measurement.as_of)} (known at ${text(measurement.known_at)})`],
      ["Alert", text(data.alert_id)],
    ],
  };
}

/** One readable line per event type; unknown fields fall back to their JSON, never to nothing. */
export function eventSummary(type: string, data: Data): EventSummary {
  switch (type) {
    case "alert.triggered":
    case "alert.resolved":
      return alertSummary(type, data);
    case "data.updated": {
      const series = Array.isArray(data.series) ? data.series.map(record) : [];
      return {
        headline: `New data: ${text(data.observations_added)} observations in ${text(data.series_count)} series.`,
        facts: [
          ...series.map((row): [string, string] => [
            text(row.series_id),
            `${text(row.added)} added, newest ${text(row.latest_date)}`,
          ]),
          ["Imports", Array.isArray(data.import_ids) ? data.import_ids.map(text).join(", ") : text(data.import_ids)],
        ],
      };
    }
    case "key.created":
    case "key.revoked": {
      const scopes = Array.isArray(data.scopes) ? data.scopes.map(text).join(", ") : "every skill of the tier";
      return {
        headline: `API key ${text(data.display_id)} ${type === "key.created" ? "created" : "revoked"}.`,
        facts: [
          ["Scopes", scopes],
          ["Key id", text(data.key_id)],
        ],
      };
    }
    case "quota.threshold":
      return {
        headline: `${text(data.percent)} % of the month's answered calls used (${text(data.answered)} of ${text(data.limit)}).`,
        facts: [["Month", text(data.month)]],
      };
    case "webhook.disabled":
      return {
        headline: `Webhook endpoint ${text(data.url)} was disabled.`,
        facts: [
          ["Reason", text(data.reason)],
          ["Endpoint", text(data.endpoint_id)],
        ],
      };
    case "webhook.test":
      return { headline: text(data.message), facts: [["Endpoint", text(data.endpoint_id)]] };
    default:
      return { headline: type, facts: Object.entries(data).map(([label, value]) => [label, text(value)]) };
  }
}
