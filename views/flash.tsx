/** The outcome of the last action: a status line, an error line, or nothing. */
export function Flash(props: { notice?: string | null; error?: string | null }) {
  return (
    <>
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
    </>
  );
}
