import type { AuditAction, AuditEntry } from "../../src/ops/audit-log.ts";
import { formatDateTime } from "../format.ts";
import { AppLayout, type Viewer } from "../layout.tsx";
import { TableScroll } from "../data-table.tsx";

const ACTIONS: Record<AuditAction, string> = {
  account_created: "account created",
  signed_in: "signed in",
  key_created: "key created",
  key_revoked: "key revoked",
  tier_changed: "tier changed",
  password_changed: "password changed",
  password_link_issued: "password link issued",
  password_reset: "password reset",
  account_disabled: "account disabled",
  account_enabled: "account enabled",
};

/** Admins: the newest entries of the account audit log, across accounts. */
export function AuditPage(props: { viewer: Viewer; entries: readonly AuditEntry[] }) {
  return (
    <AppLayout title="Audit log" viewer={props.viewer} section="admin">
      <div class="page-head">
        <h1>Account audit log</h1>
        <p class="muted">
          Setup, sign-ins, keys created and revoked, tier and password changes, password links, admin resets and
          disabled accounts; newest first.
        </p>
      </div>
      <section class="card">
        <TableScroll label="Account audit log">
          <table class="audit">
            <thead>
              <tr>
                <th>When</th>
                <th>Account</th>
                <th>What</th>
                <th>By</th>
                <th>Detail</th>
              </tr>
            </thead>
            <tbody>
              {props.entries.map((entry) => (
                <tr>
                  <td class="nowrap" safe>
                    {formatDateTime(entry.at)}
                  </td>
                  <td>
                    <a href={`/dashboard/admin/accounts/${entry.accountId}`} safe>
                      {entry.email}
                    </a>
                  </td>
                  <td safe>{ACTIONS[entry.action] ?? entry.action}</td>
                  <td safe>
                    {entry.actor === "cli"
                      ? "command line"
                      : entry.actor === entry.accountId
                        ? "the account"
                        : entry.actor}
                  </td>
                  <td safe>{entry.detail ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {props.entries.length === 0 ? <p class="muted">Nothing recorded yet.</p> : null}
      </section>
    </AppLayout>
  );
}
