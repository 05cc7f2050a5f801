/**
 * The capacity pressure index over past months, national, beside the market phases the trade press
 * agreed on at the time, so a reader can judge whether it reads the market as it was. A view as of a
 * day sees only figures published by then, so a month's index is read once its figures are out:
 * as of the 20th of the second month after it (the freight TSI, the slowest input, comes out on the
 * 15th). Run: `npm run bench:capacity` (embedded snapshot only; no census).
 */
import { openMemoryDatabase } from "../../src/db/client.ts";
import { createReferenceData } from "../../src/reference/index.ts";
import { shiftDate } from "../../src/reference/series/series-stats.ts";
import { resolveArea } from "../../src/skills/carrier-capacity/area.ts";
import { pressureIndex } from "../../src/skills/carrier-capacity/pressure.ts";

/** Phases as described when they happened (docs/carrier-capacity.md#known-market-phases). */
const PHASES: [from: string, to: string, expected: string, what: string][] = [
  ["2019-01-01", "2019-12-31", "LOOSE", "2019 freight recession after the 2018 peak"],
  ["2020-04-01", "2020-05-31", "LOOSE", "COVID lockdown: freight collapsed"],
  ["2020-08-01", "2020-12-31", "TIGHT", "restocking rebound"],
  ["2021-01-01", "2021-12-31", "TIGHT", "2021: record spot rates, capacity short"],
  ["2022-07-01", "2022-12-31", "BALANCED", "2022 H2: turning down"],
  ["2023-01-01", "2023-12-31", "LOOSE", "2023 freight recession"],
  ["2024-01-01", "2024-12-31", "LOOSE", "2024: bottoming, carriers exiting"],
];

const phaseOf = (date: string) => PHASES.find(([from, to]) => date >= from && date <= to);

const db = openMemoryDatabase();
const data = createReferenceData(db);
const loadedAt = Date.now();
await data.loadSnapshot(loadedAt);
const area = resolveArea("NATIONAL", undefined);

const rows: string[] = [];
let agree = 0;
let judged = 0;
for (let year = 2019; year <= 2026; year++) {
  for (const month of [1, 4, 7, 10]) {
    const reference = `${year}-${String(month).padStart(2, "0")}`;
    const asOf = shiftDate(`${reference}-20`, { months: 2 });
    if (asOf > "2026-11-22") break;
    const index = pressureIndex(data.view(asOf, loadedAt), area);
    const phase = phaseOf(`${reference}-15`);
    const verdict = phase && index.label ? (index.label === phase[2] ? "agrees" : "differs") : "";
    if (verdict) judged++, verdict === "agrees" && agree++;
    const top = [...index.contributions.entries()]
      .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
      .slice(0, 2)
      .map(([id, c]) => `${id} ${c > 0 ? "+" : ""}${c}`);
    rows.push(
      `| ${reference} | ${asOf} | ${index.value ?? "–"} | ${index.label ?? "no index"} | ${Math.round(index.coverage * 100)}% | ${phase ? `${phase[2]}: ${phase[3]}` : ""} | ${verdict} | ${top.join(", ")} |`,
    );
  }
}
console.log("| month | as_of | index | label | weight counted | known phase | | largest contributions |");
console.log("|---|---|---|---|---|---|---|---|");
console.log(rows.join("\n"));
console.log(`\n${agree} of ${judged} months inside a known phase read as that phase.`);
