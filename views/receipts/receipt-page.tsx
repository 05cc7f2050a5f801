import type { Tier } from "../../src/access/tiers.ts";
import type { ReceiptTrace } from "../../src/skills/audit-report/index.ts";
import { capitalize, formatDateTime } from "../format.ts";
import { AppLayout, type Viewer } from "../layout.tsx";
import { TableScroll } from "../data-table.tsx";

export interface ReceiptSummary {
  id: string;
  skill: string;
  issuedAt: number;
  seq: number;
  hash: string;
}

export type Provenance =
  | { kind: "trace"; trace: ReceiptTrace }
  | { kind: "locked"; currentTier: Tier; requiredTier: Tier };

export function ReceiptPage(props: { viewer: Viewer; receipt: ReceiptSummary; provenance: Provenance }) {
  const { receipt, provenance } = props;
  return (
    <AppLayout title={`Receipt ${receipt.id}`} viewer={props.viewer} section="usage">
      <div class="page-head">
        <p>
          <a href="/dashboard/usage">← Usage</a>
        </p>
        <h1>Receipt</h1>
        <p class="mono break" safe>
          {receipt.id}
        </p>
      </div>
      <section class="card">
        <dl class="facts">
          <dt>Skill</dt>
          <dd safe>{receipt.skill}</dd>
          <dt>Issued</dt>
          <dd safe>{formatDateTime(receipt.issuedAt)}</dd>
          <dt>Chain position</dt>
          <dd safe>{`#${receipt.seq}`}</dd>
          <dt>Hash</dt>
          <dd class="mono break" safe>
            {receipt.hash}
          </dd>
        </dl>
      </section>
      {provenance.kind === "trace" ? <TraceSections trace={provenance.trace} /> : <Locked {...provenance} />}
    </AppLayout>
  );
}

function Locked({ currentTier, requiredTier }: { currentTier: Tier; requiredTier: Tier }) {
  return (
    <section class="card locked">
      <h2>Audit provenance</h2>
      <p safe>
        {`The full provenance of a receipt (data sources, factor versions, the signed chain link and a re-run of the answer) comes with the audit-report skill, which starts at the ${capitalize(requiredTier)} tier. Your account is on ${capitalize(currentTier)}.`}
      </p>
      <p>
        <a href="/pricing" class="button secondary">
          Compare tiers
        </a>
      </p>
    </section>
  );
}

function Check({ label, value }: { label: string; value: boolean | null }) {
  const [text, cls] = value === null ? ["not checked", "badge"] : value ? ["yes", "badge ok"] : ["NO", "badge bad"];
  return (
    <li>
      <span class={cls} safe>
        {text}
      </span>{" "}
      <span safe>{label}</span>
    </li>
  );
}

function TraceSections({ trace }: { trace: ReceiptTrace }) {
  const v = trace.verification;
  return (
    <>
      <section class="card">
        <h2>Verification</h2>
        <ul class="checks">
          <Check label="Leaf entry is the hash of the recorded body" value={v.hash_valid} />
          <Check label="Included in the signed log checkpoint" value={v.included} />
          {trace.log.legacy !== null && (
            <Check label="Ed25519 signature of the pre-log receipt is valid" value={v.signature_valid} />
          )}
          {trace.log.legacy !== null && <Check label="Links to the previous pre-log receipt" value={v.link_valid} />}
          <Check label="Stored columns match the recorded body" value={v.record_matches_body} />
          <Check label="Re-running the skill on the recorded figures reproduces the answer" value={v.reproducible} />
        </ul>
        <p class="muted" safe>
          {v.reproduction.detail}
        </p>
        {v.problems.length > 0 && (
          <ul class="error">
            {v.problems.map((problem) => (
              <li safe>{problem}</li>
            ))}
          </ul>
        )}
      </section>
      <section class="card">
        <h2>Data sources</h2>
        {trace.data_sources.length === 0 ? (
          <p class="muted">This answer used no reference figures.</p>
        ) : (
          <TableScroll label="Data sources">
            <table>
              <thead>
                <tr>
                  <th>Series</th>
                  <th class="num">Value</th>
                  <th>Observed</th>
                  <th>Source</th>
                  <th>Fetched</th>
                  <th>Import</th>
                  <th>Stored value</th>
                </tr>
              </thead>
              <tbody>
                {trace.data_sources.map((source) => (
                  <tr>
                    <td class="mono" safe>
                      {source.series_id}
                    </td>
                    <td class="num" safe>
                      {String(source.value)}
                    </td>
                    <td class="nowrap" safe>
                      {source.observation_date}
                    </td>
                    <td safe>{source.source ?? "unknown"}</td>
                    <td class="nowrap">{source.fetched_at ? source.fetched_at.slice(0, 10) : "—"}</td>
                    <td class="mono" safe>
                      {source.import_id}
                    </td>
                    <td>
                      <span class={source.matches_stored_observation ? "badge ok" : "badge bad"}>
                        {source.matches_stored_observation ? "matches" : "differs"}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section class="card">
        <h2>Authorization and timing</h2>
        <dl class="facts">
          <dt>Authorization object</dt>
          <dd class="mono break" safe>
            {trace.authorization.auth_obj_id}
          </dd>
          <dt>Tier in force</dt>
          <dd safe>{trace.authorization.tier}</dd>
          <dt>Key scopes</dt>
          <dd safe>{trace.authorization.scopes?.join(", ") ?? "every skill of the tier"}</dd>
          <dt>Model version</dt>
          <dd class="mono" safe>
            {trace.model_version ?? "—"}
          </dd>
          <dt>Data as of</dt>
          <dd safe>{trace.timestamps.as_of ?? "—"}</dd>
          <dt>Data known at</dt>
          <dd safe>{trace.timestamps.known_at ?? "—"}</dd>
        </dl>
      </section>
      <section class="card">
        <h2>Transparency log</h2>
        <dl class="facts">
          <dt>Log index</dt>
          <dd safe>{String(trace.log.log_index)}</dd>
          <dt>Leaf entry</dt>
          <dd class="mono break" safe>
            {trace.log.leaf_entry}
          </dd>
          <dt>Proven in tree size</dt>
          <dd safe>{String(trace.log.tree_size)}</dd>
          <dt>Signed checkpoint</dt>
          <dd>
            <pre class="mono break" tabindex="0" safe>
              {trace.log.checkpoint}
            </pre>
          </dd>
        </dl>
        <p class="muted">
          <a href={`/dashboard/receipts/${encodeURIComponent(trace.receipt_id)}/report.json`} download="">
            Download this report (JSON)
          </a>{" "}
          and check it yourself with <code>waybill verify --receipt</code> against{" "}
          <a href="/v1/receipts/public-key">the published note verifier key</a>.
        </p>
      </section>
      <section class="card">
        <h2>Request and answer</h2>
        <details>
          <summary>Request</summary>
          <pre tabindex="0" safe>
            {JSON.stringify(trace.request, null, 2)}
          </pre>
        </details>
        <p class="muted">
          The receipt signs the answer's SHA-256, not the answer:{" "}
          <span class="mono break" safe>
            {trace.response_sha256 ?? "—"}
          </span>
        </p>
        {trace.reproduced_response === null ? (
          <p class="muted">The answer could not be re-computed, so it cannot be shown.</p>
        ) : (
          <details>
            <summary>
              {trace.verification.reproduction.answer_matches
                ? "Answer (re-computed; matches the signed digest)"
                : "Re-computed answer (does NOT match the signed digest)"}
            </summary>
            <pre tabindex="0" safe>
              {JSON.stringify(trace.reproduced_response, null, 2)}
            </pre>
          </details>
        )}
      </section>
    </>
  );
}
