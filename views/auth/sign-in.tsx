import { PlainLayout } from "../layout.tsx";

export interface SignInProps {
  email?: string;
  /** Where to go after signing in (a dashboard path, already checked). */
  next?: string;
  error?: string;
  notice?: string;
}

export function SignInPage(props: SignInProps) {
  const action = props.next ? `/signin?next=${encodeURIComponent(props.next)}` : "/signin";
  return (
    <PlainLayout title="Sign in">
      <section class="card">
        <h1>Sign in</h1>
        <p class="muted">Manage your API key, watch your usage and read your receipts.</p>
        {props.notice ? (
          <p class="notice" role="status" safe>
            {props.notice}
          </p>
        ) : null}
        {props.error ? (
          <p class="error" role="alert" safe>
            {props.error}
          </p>
        ) : null}
        <form method="post" action={action} class="stack">
          <label>
            Email
            <input type="email" name="email" autocomplete="username" required value={props.email ?? ""} autofocus />
          </label>
          <label>
            Password
            <input type="password" name="password" autocomplete="current-password" required />
          </label>
          <button type="submit" class="primary">
            Sign in
          </button>
        </form>
      </section>
    </PlainLayout>
  );
}
