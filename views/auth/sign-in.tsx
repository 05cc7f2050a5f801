import { Flash } from "../flash.tsx";
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
        <Flash notice={props.notice} error={props.error} />
        <form method="post" action={action} class="stack">
          <label>
            Email
            {/* text, not email: the server is the judge of which addresses exist, and the browser's stricter check would lock some out */}
            <input
              type="text"
              inputmode="email"
              autocapitalize="none"
              spellcheck="false"
              name="email"
              autocomplete="username"
              required
              value={props.email ?? ""}
              autofocus
            />
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
