import { Flash } from "../flash.tsx";
import { AppLayout, PlainLayout, type Viewer } from "../layout.tsx";

function NewPasswordFields() {
  return (
    <>
      <label>
        New password <span class="muted">(at least 10 characters)</span>
        <input type="password" name="password" autocomplete="new-password" minlength="10" required />
      </label>
      <label>
        Repeat the new password
        <input type="password" name="password_again" autocomplete="new-password" minlength="10" required />
      </label>
    </>
  );
}

/** The page a one-time password link opens (from `accounts create` or `accounts set-password`). */
export function SetPasswordPage(props: { token: string; email: string; error?: string }) {
  return (
    <PlainLayout title="Set your password">
      <section class="card">
        <h1>Set your password</h1>
        <p class="muted" safe>
          {`For ${props.email}. This link works once.`}
        </p>
        <Flash error={props.error} />
        <form method="post" action={`/password/${props.token}`} class="stack">
          <NewPasswordFields />
          <button type="submit" class="primary">
            Set password and sign in
          </button>
        </form>
      </section>
    </PlainLayout>
  );
}

/** Signed in: change the password (asks for the current one); every other session is signed out. */
export function ChangePasswordPage(props: { viewer: Viewer; error?: string; notice?: string }) {
  return (
    <AppLayout title="Password" viewer={props.viewer}>
      <section class="card">
        <h1>Change your password</h1>
        <p class="muted">Every other browser signed in to this account is signed out.</p>
        <Flash error={props.error} notice={props.notice} />
        <form method="post" action="/dashboard/password" class="stack">
          <input type="hidden" name="_csrf" value={props.viewer.csrfToken} />
          <label>
            Current password
            <input type="password" name="current_password" autocomplete="current-password" required />
          </label>
          <NewPasswordFields />
          <button type="submit" class="primary">
            Change password
          </button>
        </form>
      </section>
    </AppLayout>
  );
}
