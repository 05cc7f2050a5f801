import type { RecentCall } from "../../src/metering/usage-report.ts";
import { formatCount, formatDateTime, formatLatency } from "../format.ts";
import { TableScroll } from "../data-table.tsx";
import { QuotaMeter } from "./quota-meter.tsx";

/** The chart's data: per skill called, its answered and its refused calls on each day of the month. */
export interface DailyChart {
  days: string[];
  series: { skill: string; answered: number[]; refused: number[] }[];
}

const sum = (counts: readonly number[]) => counts.reduce((a, b) => a + b, 0);

/**
 * What the chart script draws: answered calls stacked by skill (they are what the quota counts),
 * and all refusals as one more band, so the answered bands add up to the quota line.
 */
function chartSeries(chart: DailyChart): { skill: string; counts: number[] }[] {
  const answered = chart.series.map((s) => ({ skill: s.skill, counts: s.answered }));
  const refused = chart.days.map((_, day) => chart.series.reduce((total, s) => total + (s.refused[day] ?? 0), 0));
  return sum(refused) > 0 ? [...answered, { skill: "refused (any skill)", counts: refused }] : answered;
}

/**
 * JSON for a <script type="application/json"> island. Script content is raw text (entities are not
 * decoded there), so instead of HTML-escaping, every character that could end the element or
 * start markup is written as a JSON \u escape, which JSON.parse turns back.
 */
export function jsonIsland(id: string, data: unknown): JSX.Element {
  const json = JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `<script type="application/json" id="${id}">${json}</script>`;
}

export function DailyCallsChart({ chart, title }: { chart: DailyChart; title: string }) {
  const answered = chart.series.reduce((total, s) => total + sum(s.answered), 0);
  const refused = chart.series.reduce((total, s) => total + sum(s.refused), 0);
  const total = answered + refused;
  return (
    <section class="card">
      <h2 safe>{title}</h2>
      {total === 0 ? (
        <p class="muted">No calls yet this month.</p>
      ) : (
        <>
          {jsonIsland("daily-calls-data", { days: chart.days, series: chartSeries(chart) })}
          <div
            id="daily-calls-chart"
            class="chart"
            data-island="daily-calls-data"
            role="img"
            aria-label="Answered calls per day by skill, and refused calls"
          >
            <noscript>The chart needs JavaScript; the table below lists the calls.</noscript>
          </div>
          <table class="compact">
            <thead>
              <tr>
                <th>Skill</th>
                <th class="num">Answered</th>
                <th class="num">Refused</th>
              </tr>
            </thead>
            <tbody>
              {chart.series.map((s) => (
                <tr>
                  <td safe>{s.skill}</td>
                  <td class="num" safe>
                    {formatCount(sum(s.answered))}
                  </td>
                  <td class="num" safe>
                    {formatCount(sum(s.refused))}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td class="num total-answered" safe>
                  {formatCount(answered)}
                </td>
                <td class="num total-refused" safe>
                  {formatCount(refused)}
                </td>
              </tr>
            </tfoot>
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
        <TableScroll label="Recent calls">
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
        </TableScroll>
      )}
    </section>
  );
}

/** One account's month: answered against the quota, then calls per day and the recent calls. */
export interface MonthUsage {
  used: number;
  refused: number;
  perMonth: number;
  chart: DailyChart;
  calls: readonly RecentCall[];
}

/** The sections the account's usage page and an admin's view of it share; receipts are linked for their owner only. */
export function MonthUsageSections({ usage, receiptLinks }: { usage: MonthUsage; receiptLinks: boolean }) {
  return (
    <>
      <section class="card">
        <QuotaMeter
          used={usage.used}
          refused={usage.refused}
          limit={usage.perMonth}
          label="Answered calls this month"
        />
      </section>
      <DailyCallsChart chart={usage.chart} title="Calls per day" />
      <RecentCallsTable calls={usage.calls} receiptLinks={receiptLinks} />
    </>
  );
}
