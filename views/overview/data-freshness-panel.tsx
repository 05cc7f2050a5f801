import type { InputFreshness } from "../../src/reference/series/freshness.ts";
import { formatCount } from "../format.ts";

/** What a user's answers are priced from, how current it is, and what is overdue. */
export function DataFreshnessPanel({ inputs }: { inputs: readonly InputFreshness[] }) {
  const anyOverdue = inputs.some((input) => input.overdue > 0);
  return (
    <section class="card" id="data-freshness">
      <h2>Figures behind your answers</h2>
      <p class="muted">
        The newest public figures this instance prices with. A figure behind its own publication schedule lowers an
        answer's confidence, and the answer says why.
      </p>
      <table class="data-freshness">
        <thead>
          <tr>
            <th>Source</th>
            <th>Newest in</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {inputs.map((input) => (
            <tr class={input.overdue > 0 ? "overdue" : "current"}>
              <td safe>{input.label}</td>
              <td safe>{input.newest}</td>
              <td safe>
                {input.overdue === 0
                  ? "current"
                  : `overdue: ${formatCount(input.overdue)} of ${formatCount(input.series)} series behind schedule${input.dueSince ? ` since ${input.dueSince}` : ""}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {anyOverdue ? (
        <p class="muted">Newer figures are fetched automatically unless the server runs offline; ask your operator.</p>
      ) : null}
    </section>
  );
}
