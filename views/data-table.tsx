import type { Children } from "@kitajs/html";

export interface Column {
  label: string;
  class?: string;
}

/** A scrollable table of rows, or one muted line when there are none. */
export function DataTable(props: { columns: Column[]; rows: Children[]; empty: string; compact?: boolean }) {
  if (props.rows.length === 0) {
    return (
      <p class="muted" safe>
        {props.empty}
      </p>
    );
  }
  return (
    <div class="table-scroll">
      <table class={props.compact ? "compact" : undefined}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th class={column.class} safe>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{props.rows}</tbody>
      </table>
    </div>
  );
}

/** A one-button form that POSTs with the session's CSRF field: works without JavaScript. */
export function PostButton(props: { csrfToken: string; action: string; label: string; kind?: string }) {
  return (
    <form method="post" action={props.action}>
      <input type="hidden" name="_csrf" value={props.csrfToken} />
      <button type="submit" class={props.kind ?? "secondary"} safe>
        {props.label}
      </button>
    </form>
  );
}
