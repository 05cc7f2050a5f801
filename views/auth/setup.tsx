import { Flash } from "../flash.tsx";
import { PlainLayout } from "../layout.tsx";

export function SetupPage(props: { token: string; email?: string; error?: string }) {
  return (
    <PlainLayout title="Set up Waybill">
      <section class="card">
        <h1>Create the admin account</h1>
        <p class="muted">
          This link works once. The account you create here can manage every account's tier and sees everyone's usage.
        </p>
        <Flash error={props.error} />
        <form method="post" action={`/setup/${props.token}`} class="stack">
          <label>
            Email
            <input type="email" name="email" autocomplete="username" required value={props.email ?? ""} autofocus />
          </label>
          <label>
            Password <span class="muted">(at least 10 characters)</span>
            <input type="password" name="password" autocomplete="new-password" minlength="10" required />
          </label>
          <label>
            Repeat the password
            <input type="password" name="password_again" autocomplete="new-password" minlength="10" required />
          </label>
          <button type="submit" class="primary">
            Create admin account
          </button>
        </form>
      </section>
    </PlainLayout>
  );
}
