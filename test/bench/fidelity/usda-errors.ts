import { defined } from "../../support/defined.ts";

/**
 * Where the held-out USDA lane-weeks miss (docs/rate-model.md, "What limits it"): the model's error against USDA's
 * midpoint grouped by shipping district, destination, USDA distance band and week, with how many lane-weeks sit
 * beyond +/-10 %, and which groups make the tails. Read only after the model's constants were fixed: it explains the
 * held-out result, it chooses nothing.
 */

export interface ScoredLaneWeek {
  week: string;
  district: string;
  destination: string;
  miles: number;
  low: number;
  high: number;
  cost: number;
}

export const signedError = (w: ScoredLaneWeek): number => (w.cost - (w.low + w.high) / 2) / ((w.low + w.high) / 2);
const inside = (w: ScoredLaneWeek) => w.cost >= w.low && w.cost <= w.high;

/** The q-quantile by rank (no interpolation), as the rest of the fidelity tables use. */
export const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : defined(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))], "the quantile");
};

export const pct = (x: number): string => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;

/** USDA's quarterly-dataset distance bands. */
export function distanceBand(miles: number): string {
  if (miles <= 500) return "local (<= 500 mi)";
  if (miles <= 1500) return "short (501-1,500 mi)";
  if (miles <= 2500) return "medium (1,501-2,500 mi)";
  return "long (> 2,500 mi)";
}

const TAIL = 0.1;

function groupRow(label: string, lanes: readonly ScoredLaneWeek[]): string {
  const errors = lanes.map(signedError);
  const share = Math.round((lanes.filter(inside).length / lanes.length) * 100);
  return (
    `| ${label} | ${lanes.length} | ${share} % | ${pct(quantile(errors, 0.5))} | ${pct(quantile(errors, 0.1))} .. ${pct(quantile(errors, 0.9))} | ` +
    `${errors.filter((e) => e > TAIL).length} | ${errors.filter((e) => e < -TAIL).length} |`
  );
}

const groupings: [string, (w: ScoredLaneWeek) => string][] = [
  ["from", (w) => w.district],
  ["to", (w) => w.destination],
  ["band", (w) => distanceBand(w.miles)],
  ["week", (w) => w.week],
];

/** Each tail's lane-weeks counted by district, largest first: "Georgia 17, ...". */
function tailByDistrict(lanes: readonly ScoredLaneWeek[], inTail: (error: number) => boolean): string {
  const counts = new Map<string, number>();
  for (const w of lanes) if (inTail(signedError(w))) counts.set(w.district, (counts.get(w.district) ?? 0) + 1);
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const named = [...counts]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([district, n]) => `${district} ${n}`);
  return `${total} (${named.join(", ") || "none"})`;
}

/** The analysis as Markdown lines; `districtName` shortens USDA's district headers for the table. */
export function heldOutErrorAnalysis(
  lanes: readonly ScoredLaneWeek[],
  districtName: (district: string) => string,
): string[] {
  const rows = groupings.flatMap(([prefix, keyOf]) => {
    const groups = new Map<string, ScoredLaneWeek[]>();
    for (const w of lanes) groups.set(keyOf(w), [...(groups.get(keyOf(w)) ?? []), w]);
    return [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, group]) => groupRow(`${prefix} ${prefix === "from" ? districtName(key) : key}`, group));
  });
  const named = lanes.map((w) => ({ ...w, district: districtName(w.district) }));
  return [
    "| held-out lane-weeks | n | inside | median signed error | 10th..90th | over +10 % | under -10 % |",
    "|---|---|---|---|---|---|---|",
    groupRow("all", lanes),
    ...rows,
    "",
    `Over +10 %: ${tailByDistrict(named, (e) => e > TAIL)}. Under -10 %: ${tailByDistrict(named, (e) => e < -TAIL)}.`,
  ];
}
