import type { Children } from "@kitajs/html";

export interface Column {
  label: string;
  class?: string;
}

/** A scrollable table of rows, or one muted line when there are none. */
export function DataTable(props: {
  columns: Column[];
  rows: Children[];
  empty: string;
  compact?: boolean;
  /** Names the table's scrolling region for screen readers. */
  label: string;
}) {
  if (props.rows.length === 0) {
    return (
      <p class="muted" safe>
        {props.empty}
      </p>
    );
  }
  return (
    <TableScroll label={props.label}>
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
    </TableScroll>
  );
}

/**
 * The box a table scrolls in when it is wider than the screen (the page itself never scrolls
 * sideways): a named region, focusable so that a keyboard can scroll it too.
 */
export function TableScroll(props: { label: string; children: Children }) {
  return (
    <section class="table-scroll" aria-label={props.label} tabindex="0">
      {props.children}
    </section>
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
