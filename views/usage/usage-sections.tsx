import type { RecentCall } from "../../src/metering/usage-report.ts";
import { formatCount, formatDateTime, formatLatency } from "../format.ts";

/** The chart's data: one count per day of the month for each skill called (answered and refused). */
export interface DailyChart {
  days: string[];
  series: { skill: string; counts: number[] }[];
}

/**
 * JSON for a <script type="application/json"> island. Script content is raw text (entities are not
 * decoded there), so instead of HTML-escaping, every character that could end the element or
 * start markup is written as a JSON \u escape, which JSON.parse turns back.
 */
function jsonIsland(id: string, data: unknown): JSX.Element {
  const json = JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `<script type="application/json" id="${id}">${json}</script>`;
}

export function DailyCallsChart({ chart, title }: { chart: DailyChart; title: string }) {
  const total = chart.series.reduce((sum, s) => sum + s.counts.reduce((a, b) => a + b, 0), 0);
  return (
    <section class="card">
      <h2 safe>{title}</h2>
      {total === 0 ? (
        <p class="muted">No calls yet this month.</p>
      ) : (
        <>
          {jsonIsland("daily-calls-data", chart)}
          <div id="daily-calls-chart" class="chart" data-island="daily-calls-data" role="img" aria-label="Calls per day by skill">
            <noscript>The chart needs JavaScript; the table below lists the calls.</noscript>
          </div>
          <table class="compact">
            <thead>
              <tr>
                <th>Skill</th>
                <th class="num">Calls this month</th>
              </tr>
            </thead>
            <tbody>
              {chart.series.map((s) => (
                <tr>
                  <td safe>{s.skill}</td>
                  <td class="num" safe>
                    {formatCount(s.counts.reduce((a, b) => a + b, 0))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function statusClass(status: number): string {
  if (status >= 200 && status < 300) return "badge ok";
  if (status === 429) return "badge warn";
  return "badge bad";
}

/** Latest calls; a receipt link where the call was answered (and `receiptLinks` is on: only the owner can open receipts). */
export function RecentCallsTable({ calls, receiptLinks }: { calls: readonly RecentCall[]; receiptLinks: boolean }) {
  return (
    <section class="card">
      <h2>Recent calls</h2>
      {calls.length === 0 ? (
        <p class="muted">No calls yet.</p>
      ) : (
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th>Time</th>
                <th>Skill</th>
                <th>Status</th>
                <th class="num hide-narrow">Latency</th>
                <th class="hide-narrow">Key</th>
                <th>Receipt</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((call) => (
                <tr>
                  <td class="nowrap" safe>
                    {formatDateTime(call.at)}
                  </td>
                  <td safe>{call.skill}</td>
                  <td>
                    <span class={statusClass(call.status)} safe>
                      {String(call.status)}
                    </span>
                  </td>
                  <td class="num nowrap hide-narrow" safe>
                    {formatLatency(call.latencyMs)}
                  </td>
                  <td class="hide-narrow">
                    <code safe>{call.keyDisplayId}</code>
                  </td>
                  <td>
                    {call.receiptId === null ? (
                      <span class="muted">—</span>
                    ) : receiptLinks ? (
                      <a href={`/dashboard/receipts/${call.receiptId}`} class="mono" title={call.receiptId}>
                        <span class="full-id" safe>
                          {call.receiptId}
                        </span>
                        <span class="short-id" safe>{`…${call.receiptId.slice(-6)}`}</span>
                      </a>
                    ) : (
                      <code safe>{call.receiptId}</code>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
