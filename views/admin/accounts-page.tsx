import { TIERS, type Tier } from "../../src/access/tiers.ts";
import { capitalize, formatCount, formatDate } from "../format.ts";
import { AppLayout, type Viewer } from "../layout.tsx";
import { type DataFamilyRow, DataFreshnessSection } from "./data-freshness.tsx";
import { TableScroll } from "../data-table.tsx";

export interface AccountRow {
  id: string;
  email: string;
  tier: Tier;
  isAdmin: boolean;
  createdAt: number;
  usedThisMonth: number;
  perMonth: number;
  activeKeyDisplayId: string | null;
  disabled: boolean;
}

/** Links to the confirmation step of each admin action that applies to the account now. */
function AccountActions({ row }: { row: AccountRow }) {
  const link = (path: string, label: string) => (
    <a href={`/dashboard/admin/accounts/${row.id}/confirm/${path}`} class="action-link" safe>
      {label}
    </a>
  );
  if (row.disabled) return <>{link("enable", "Enable")}</>;
  return (
    <>
      {link("password-reset", "Reset password")} {row.activeKeyDisplayId ? link("revoke-key", "Revoke key") : null}{" "}
      {row.isAdmin ? null : link("disable", "Disable")}
    </>
  );
}

export function AccountsPage(props: {
  viewer: Viewer;
  month: string;
  rows: readonly AccountRow[];
  data?: readonly DataFamilyRow[];
  notice?: string;
}) {
  return (
    <AppLayout title="Accounts" viewer={props.viewer} section="admin">
      <div class="page-head">
        <h1>Accounts</h1>
        <p class="muted" safe>
          {`${formatCount(props.rows.length)} accounts · usage for ${props.month}`}
        </p>
        <p>
          <a href="/dashboard/admin/audit">Account audit log</a>
        </p>
      </div>
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : null}
      <section class="card">
        <TableScroll label="Accounts">
          <table class="accounts">
            <thead>
              <tr>
                <th>Account</th>
                <th>Tier</th>
                <th class="num">This month</th>
                <th>Key</th>
                <th>Since</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <AccountRowView row={row} csrfToken={props.viewer.csrfToken} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
      {props.data ? <DataFreshnessSection families={props.data} /> : null}
    </AppLayout>
  );
}

/** One row; htmx swaps it alone after a tier change. */
export function AccountRowView({ row, csrfToken, saved }: { row: AccountRow; csrfToken: string; saved?: boolean }) {
  const rowId = `account-${row.id}`;
  return (
    <tr id={rowId}>
      <td>
        <a href={`/dashboard/admin/accounts/${row.id}`} safe>
          {row.email}
        </a>
        {row.isAdmin && <span class="badge">admin</span>}
        {row.disabled && <span class="badge warn">disabled</span>}
      </td>
      <td>
        <form
          method="post"
          action={`/dashboard/admin/accounts/${row.id}/tier`}
          hx-post={`/dashboard/admin/accounts/${row.id}/tier`}
          hx-target={`#${rowId}`}
          class="inline"
        >
          <input type="hidden" name="_csrf" value={csrfToken} />
          <label class="visually-hidden" for={`tier-${row.id}`} safe>
            {`Tier of ${row.email}`}
          </label>
          <select name="tier" id={`tier-${row.id}`}>
            {TIERS.map((tier) => (
              <option value={tier} selected={tier === row.tier} safe>
                {capitalize(tier)}
              </option>
            ))}
          </select>
          <button type="submit" class="secondary small">
            Save
          </button>
          {saved ? (
            <span class="badge ok" role="status">
              saved
            </span>
          ) : null}
        </form>
      </td>
      <td class="num nowrap" safe>
        {`${formatCount(row.usedThisMonth)} / ${formatCount(row.perMonth)}`}
      </td>
      <td>{row.activeKeyDisplayId ? <code safe>{row.activeKeyDisplayId}</code> : <span class="muted">none</span>}</td>
      <td class="nowrap" safe>
        {formatDate(row.createdAt)}
      </td>
      <td class="nowrap">
        <AccountActions row={row} />
      </td>
    </tr>
  );
}
