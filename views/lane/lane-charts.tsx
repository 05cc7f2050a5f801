import { partLabel } from "./lane-labels.ts";

/** Stable colours for breakdown parts, in the order the answer lists them. */
const PART_COLOURS = [
  "#1f6feb",
  "#2da44e",
  "#bf8700",
  "#8250df",
  "#1b7c83",
  "#cf222e",
  "#6e7781",
  "#fb8500",
  "#d1242f",
];

const usd = (value: number) => `${value < 0 ? "-" : ""}$${Math.abs(value).toFixed(2)}`;

/**
 * The per-mile breakdown as one stacked bar, drawn from whatever numeric lines the answer carries
 * (so new lines appear without a change here). A negative line (a lane-balance discount) cannot
 * stack; it is listed under the bar.
 */
export function BreakdownChart(props: { breakdown: Record<string, unknown> }) {
  const parts = Object.entries(props.breakdown)
    .filter((entry): entry is [string, number] => typeof entry[1] === "number" && entry[1] !== 0)
    .map(([field, value], index) => ({ field, value, colour: PART_COLOURS[index % PART_COLOURS.length] ?? "#6e7781" }));
  const positive = parts.filter((part) => part.value > 0);
  const total = positive.reduce((sum, part) => sum + part.value, 0) || 1;
  let at = 0;
  return (
    <figure class="breakdown">
      <svg viewBox="0 0 1000 48" role="img" aria-label="Cost per mile by part" preserveAspectRatio="none" class="bar">
        {positive.map((part) => {
          const width = (part.value / total) * 1000;
          const x = at;
          at += width;
          return (
            <rect x={x.toFixed(1)} y="0" width={width.toFixed(1)} height="48" fill={part.colour}>
              <title safe>{`${partLabel(part.field)}: ${usd(part.value)} per mile`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption>
        <ul class="legend">
          {parts.map((part) => (
            <li>
              <svg width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" fill={part.value > 0 ? part.colour : "none"} stroke={part.colour} />
              </svg>{" "}
              <span safe>{`${partLabel(part.field)} ${usd(part.value)}/mi`}</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
