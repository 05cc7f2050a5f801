/**
 * The capacity pressure index over past quarters, national, beside the market phases the trade press
 * agreed on at the time, so a reader can judge whether the index's own history spans loose to tight and
 * reads the market as it was. The phases are a check, not a target: the model's weights and scales were
 * set before this table was read (docs/carrier-capacity.md). A view as of a day sees only figures
 * published by then, so a month's index is read once its figures are out: as of the 20th of the second
 * month after it (the freight TSI, the slowest input, comes out on the 15th).
 * Run: `npm run bench:capacity` (embedded snapshot only; no census). Writes its block of docs/benchmarks.md.
 */
import { openMemoryDatabase } from "../../src/db/client.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { shiftDate } from "../../src/reference/series/series-stats.ts";
import { resolveArea } from "../../src/skills/carrier-capacity/area.ts";
import { CAPACITY_MODEL } from "../../src/skills/carrier-capacity/constants.ts";
import { pressureIndex } from "../../src/skills/carrier-capacity/pressure.ts";
import { BENCHMARKS_PAGE, CAPACITY_MARKERS, ensureBlock, replaceBetween } from "./results-block.ts";

/** Phases as described when they happened (docs/carrier-capacity.md#known-market-phases). */
const PHASES: [from: string, to: string, expected: string, what: string][] = [
  ["2018-01-01", "2018-12-31", "TIGHT", "2018 capacity crunch: record contract rates"],
  ["2019-01-01", "2019-12-31", "LOOSE", "2019 freight recession after the 2018 peak"],
  ["2020-04-01", "2020-05-31", "LOOSE", "COVID lockdown: freight collapsed"],
  ["2020-08-01", "2020-12-31", "TIGHT", "restocking rebound"],
  ["2021-01-01", "2022-03-31", "TIGHT", "2021 to early 2022: record spot rates, capacity short"],
  ["2022-07-01", "2022-12-31", "BALANCED", "2022 H2: turning down"],
  ["2023-01-01", "2023-12-31", "LOOSE", "2023 freight recession"],
  ["2024-01-01", "2024-12-31", "LOOSE", "2024: bottoming, carriers exiting"],
];

const phaseOf = (date: string) => PHASES.find(([from, to]) => date >= from && date <= to);
const signed = (value: number) => `${value > 0 ? "+" : ""}${value}`;

const db = openMemoryDatabase();
const data = createReferenceData(db);
const loadedAt = Date.now();
await data.loadSnapshot(loadedAt);
const area = resolveArea("NATIONAL", undefined);
const today = new Date().toISOString().slice(0, 10);

const rows: string[] = [];
let agree = 0;
let judged = 0;
let [lowest, highest] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
for (let year = 2018; ; year++) {
  const months = [1, 4, 7, 10].map((month) => `${year}-${String(month).padStart(2, "0")}`);
  const due = months.filter((reference) => shiftDate(`${reference}-20`, { months: 2 }) <= today);
  if (due.length === 0) break;
  for (const reference of due) {
    const asOf = shiftDate(`${reference}-20`, { months: 2 });
    const index = pressureIndex(data.view(asOf, loadedAt), area);
    if (index.value !== null) [lowest, highest] = [Math.min(lowest, index.value), Math.max(highest, index.value)];
    const phase = phaseOf(`${reference}-15`);
    const verdict = phase && index.label ? (index.label === phase[2] ? "agrees" : "differs") : "";
    if (verdict) {
      judged++;
      if (verdict === "agrees") agree++;
    }
    const top = [...index.contributions.entries()]
      .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
      .slice(0, 3)
      .map(([id, points]) => `${id} ${signed(points)}`);
    rows.push(
      `| ${reference} | ${asOf} | ${index.value === null ? "–" : signed(index.value)} | ${index.label ?? "no index"} | ${Math.round(index.coverage * 100)}% | ${phase ? `${phase[2]}: ${phase[3]}` : ""} | ${verdict} | ${top.join(", ")} |`,
    );
  }
}

const block = [
  `Model \`${CAPACITY_MODEL.version}\`, embedded snapshot, no FMCSA census; run on ${today}.`,
  "",
  "| month | as_of | index | label | weight counted | known phase | | largest contributions (index points) |",
  "|---|---|---|---|---|---|---|---|",
  ...rows,
  "",
  `The index's own history spans ${signed(lowest)} to ${signed(highest)}. ${agree} of ${judged} quarters inside a known phase read as that phase (a check, not a fit).`,
].join("\n");
console.log(block);
ensureBlock(BENCHMARKS_PAGE, "Carrier-capacity index against known market phases", ...CAPACITY_MARKERS);
replaceBetween(BENCHMARKS_PAGE, ...CAPACITY_MARKERS, block);
