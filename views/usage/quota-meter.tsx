import { formatCount } from "../format.ts";

/**
 * Month-to-date answered calls against the quota, as a <progress> bar (no inline style, so the CSP
 * can forbid it). Refused calls are shown beside it, never inside it: they do not count.
 */
export function QuotaMeter(props: { used: number; limit: number; refused: number; label: string }) {
  const ratio = props.limit > 0 ? props.used / props.limit : 0;
  const level = ratio >= 1 ? "full" : ratio >= 0.8 ? "high" : "normal";
  return (
    <div class={`quota ${level}`}>
      <p class="big-number">
        <span safe>{formatCount(props.used)}</span>
        <span class="of" safe>{` of ${formatCount(props.limit)} answered`}</span>
      </p>
      <progress
        value={String(Math.min(props.used, props.limit))}
        max={String(props.limit)}
        aria-label={props.label}
        safe
      >
        {`${Math.round(ratio * 100)}%`}
      </progress>
      <p class="muted" safe>
        {`${formatCount(Math.max(0, props.limit - props.used))} left (${Math.min(100, Math.round(ratio * 100))}% used)`}
      </p>
      <p class="muted refused-count" safe>
        {`${formatCount(props.refused)} refused ${props.refused === 1 ? "call" : "calls"} this month, not counted toward the quota`}
      </p>
    </div>
  );
}
