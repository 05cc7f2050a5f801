import { toolTitle } from "../../src/skills/call-names.ts";
import { Flash } from "../flash.tsx";
import type { Scope } from "../../src/skills/catalog.ts";
import { formatDateTime } from "../format.ts";

export interface ActiveKeyView {
  displayId: string;
  /** null: every skill the tier allows. */
  scopes: readonly string[] | null;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface KeyPanelProps {
  csrfToken: string;
  activeKey: ActiveKeyView | null;
  /** The scopes this account's tier may put on a key: one checkbox each. */
  allowedScopes: readonly Scope[];
  /** The full key, right after creation: rendered this once and never again. */
  newKey?: string;
  /** Where callers reach the API (the public URL, else the request's origin), for the first-call example. */
  apiOrigin?: string;
  /** Ask before revoking (the "Revoke…" link leads here, with or without JavaScript). */
  confirmRevoke?: boolean;
  notice?: string;
  error?: string;
}

/**
 * Everything on the key page that changes: htmx swaps this whole panel (outerHTML) after every
 * action; without JavaScript the same markup arrives inside a full page.
 */
export function KeyPanel(props: KeyPanelProps) {
  return (
    <section id="key-panel" class="stack" hx-target:inherited="#key-panel">
      <Flash notice={props.notice} error={props.error} />
      {props.newKey ? <NewKey value={props.newKey} apiOrigin={props.apiOrigin ?? ""} /> : null}
      {props.activeKey ? (
        <ActiveKey
          csrfToken={props.csrfToken}
          activeKey={props.activeKey}
          confirmRevoke={props.confirmRevoke ?? false}
        />
      ) : (
        <NoKey />
      )}
      <CreateKeyForm
        csrfToken={props.csrfToken}
        allowedScopes={props.allowedScopes}
        replacing={props.activeKey?.displayId ?? null}
      />
    </section>
  );
}

function NewKey({ value, apiOrigin }: { value: string; apiOrigin: string }) {
  const curl =
    `curl -s ${apiOrigin}/v1/rates/lookup \\\n` +
    `  -H 'Authorization: Bearer ${value}' \\\n` +
    `  -H 'Content-Type: application/json' \\\n` +
    `  -d '{"origin": "Chicago, IL", "destination": "Dallas, TX", "equipment": "DRY_VAN"}'`;
  return (
    <div class="card new-key" role="status">
      <h2>Your new API key</h2>
      <p>
        Copy it now and store it somewhere safe. It is shown only this once; Waybill keeps only a fingerprint of it.
      </p>
      <div class="copy-row">
        <code id="new-key-value" class="secret" safe>
          {value}
        </code>
        <button type="button" class="secondary" data-copy-from="#new-key-value" hidden>
          Copy
        </button>
      </div>
      <p class="muted">
        Send it as <code>Authorization: Bearer wbk_…</code> on every API call. Your first call:
      </p>
      <div class="copy-row">
        <pre id="first-call" class="secret" safe>
          {curl}
        </pre>
        <button type="button" class="secondary" data-copy-from="#first-call" hidden>
          Copy
        </button>
      </div>
      <p>
        Every skill, its input and its answer: <a href="/docs">the API documentation</a>.
      </p>
    </div>
  );
}

function NoKey() {
  return (
    <div class="card">
      <h2>No active key</h2>
      <p class="muted">Create a key below to start calling the API.</p>
    </div>
  );
}

function ActiveKey({
  csrfToken,
  activeKey,
  confirmRevoke,
}: {
  csrfToken: string;
  activeKey: ActiveKeyView;
  confirmRevoke: boolean;
}) {
  return (
    <div class="card">
      <div class="card-head">
        <h2>Active key</h2>
        <span class="badge ok">active</span>
      </div>
      <dl class="facts">
        <dt>Key</dt>
        <dd>
          <code class="key-id" safe>
            {activeKey.displayId}
          </code>
        </dd>
        <dt>Scopes</dt>
        <dd>
          {activeKey.scopes === null ? (
            <span class="muted">Every skill your tier allows</span>
          ) : (
            <ul class="chips">
              {activeKey.scopes.map((scope) => (
                <li safe>{scope}</li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Created</dt>
        <dd safe>{formatDateTime(activeKey.createdAt)}</dd>
        <dt>Last used</dt>
        <dd safe>{formatDateTime(activeKey.lastUsedAt)}</dd>
      </dl>
      {confirmRevoke ? (
        <form method="post" action="/dashboard/keys/revoke" hx-post="/dashboard/keys/revoke" class="confirm">
          <input type="hidden" name="_csrf" value={csrfToken} />
          <p>
            <strong>Revoke this key?</strong> Every program using it gets <code>401 REVOKED_API_KEY</code> on its next
            call.
          </p>
          <div class="actions">
            <button type="submit" class="danger">
              Revoke key
            </button>
            <a href="/dashboard/keys" hx-get="/dashboard/keys" class="button secondary">
              Cancel
            </a>
          </div>
        </form>
      ) : (
        <div class="actions">
          <a
            href="/dashboard/keys?confirm=revoke"
            hx-get="/dashboard/keys?confirm=revoke"
            class="button danger-outline"
          >
            Revoke…
          </a>
        </div>
      )}
    </div>
  );
}

function CreateKeyForm({
  csrfToken,
  allowedScopes,
  replacing,
}: {
  csrfToken: string;
  allowedScopes: readonly Scope[];
  replacing: string | null;
}) {
  return (
    <form method="post" action="/dashboard/keys" hx-post="/dashboard/keys" class="card stack">
      <h2>{replacing ? "Replace the key" : "Create a key"}</h2>
      <input type="hidden" name="_csrf" value={csrfToken} />
      <fieldset>
        <legend>Scopes</legend>
        <p class="muted">Tick the skills this key may call. Leave all unticked for every skill your tier allows.</p>
        <div class="scope-grid">
          {allowedScopes.map((scope) => (
            <label class="check">
              <input type="checkbox" name="scopes" value={scope} />
              <span safe>{toolTitle({ name: scope })}</span>
              <code class="muted small">{scope}</code>
            </label>
          ))}
        </div>
      </fieldset>
      {replacing ? (
        <p class="warning">
          Creating a key revokes the current one (<code safe>{replacing}</code>) at once. Programs still using it will
          be refused.
        </p>
      ) : null}
      <div class="actions">
        <button type="submit" class="primary">
          {replacing ? "Create key and revoke the old one" : "Create key"}
        </button>
      </div>
    </form>
  );
}
