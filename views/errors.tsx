import { PlainLayout } from "./layout.tsx";

/** A refusal page: 403 (CSRF), 404 (unknown, or not yours), 429 and the like. */
export function ProblemPage(props: { title: string; message: string }) {
  return (
    <PlainLayout title={props.title}>
      <section class="card">
        <h1 safe>{props.title}</h1>
        <p safe>{props.message}</p>
        <p>
          <a href="/dashboard">Back to the dashboard</a>
        </p>
      </section>
    </PlainLayout>
  );
}
