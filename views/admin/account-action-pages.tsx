import { AppLayout, type Viewer } from "../layout.tsx";

/** An admin action on one account, as the confirmation page names it. */
export interface AccountAction {
  /** The POST path segment: /dashboard/admin/accounts/:id/<path>. */
  path: "password-reset" | "revoke-key" | "disable" | "enable";
  title: string;
  /** What happens, in one or two sentences, so the admin confirms knowingly. */
  consequence: string;
  button: string;
  danger: boolean;
}

export const ACCOUNT_ACTIONS: Record<AccountAction["path"], AccountAction> = {
  "password-reset": {
    path: "password-reset",
    title: "Reset password",
    consequence:
      "The current password stops working and every session of the account ends. You get a one-time link (valid 24 h) to hand to its owner, who sets a new password with it.",
    button: "Reset password",
    danger: true,
  },
  "revoke-key": {
    path: "revoke-key",
    title: "Revoke API key",
    consequence:
      "The account's active key is refused from its next call on (401 REVOKED_API_KEY). Its owner can create a new one in the dashboard.",
    button: "Revoke key",
    danger: true,
  },
  disable: {
    path: "disable",
    title: "Disable account",
    consequence:
      "Nobody can sign in as the account or call with its key: its key is revoked, its password and password links are removed and its sessions end. Its receipts and usage stay. You can enable it again later; its owner then needs a password link.",
    button: "Disable account",
    danger: true,
  },
  enable: {
    path: "enable",
    title: "Enable account",
    consequence:
      "The account may sign in again once its owner sets a password: reset the password afterwards to get a link for them.",
    button: "Enable account",
    danger: false,
  },
};

/** The confirmation step of an admin action: nothing changes until this form is posted. */
export function ConfirmAccountActionPage(props: {
  viewer: Viewer;
  accountId: string;
  email: string;
  action: AccountAction;
}) {
  const { action } = props;
  return (
    <AppLayout title={action.title} viewer={props.viewer} section="admin">
      <section class="card">
        <h1 safe>{`${action.title}: ${props.email}`}</h1>
        <p safe>{action.consequence}</p>
        <form method="post" action={`/dashboard/admin/accounts/${props.accountId}/${action.path}`} class="inline">
          <input type="hidden" name="_csrf" value={props.viewer.csrfToken} />
          <button type="submit" class={action.danger ? "danger" : undefined} safe>
            {action.button}
          </button>{" "}
          <a href="/dashboard/admin">Cancel</a>
        </form>
      </section>
    </AppLayout>
  );
}

/** After a password reset: the one-time link, shown once, to hand to the account's owner. */
export function PasswordLinkPage(props: { viewer: Viewer; email: string; link: string }) {
  return (
    <AppLayout title="Password link" viewer={props.viewer} section="admin">
      <section class="card">
        <h1 safe>{`Password reset for ${props.email}`}</h1>
        <p>
          Give this one-time link to the account's owner; it is valid for 24 hours and shown only now. Issuing another
          link kills this one.
        </p>
        <p>
          <code class="secret" id="password-link" safe>
            {props.link}
          </code>
        </p>
        <p>
          <a href="/dashboard/admin">Back to the accounts</a>
        </p>
      </section>
    </AppLayout>
  );
}
