import { expect, test } from "bun:test";
import { RATE_MODEL } from "../../../src/skills/rate-lookup/constants.ts";
import { EQUIPMENT_COST_INDEX, equipmentCostAsOf } from "../../../src/skills/rate-lookup/equipment-cost.ts";
import { LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";
import { defined } from "../../support/defined.ts";

const { data } = await snapshotReferenceData();
const editions = RATE_MODEL.atriEditions.value;

test("an ATRI edition counts from its publication date, not its data year", async () => {
  const edition = defined(
    editions.find((e) => e.edition === 2025),
    "the editions entry where e.edition === 2025",
  );
  const dayBefore = new Date(Date.parse(edition.publishedOn) - 86_400_000).toISOString().slice(0, 10);
  expect(
    defined(equipmentCostAsOf(data.view(dayBefore, LOADED_AT)), "equipmentCostAsOf(data.view(dayBefore, LOADED_AT))")
      .edition.edition,
  ).toBe(2024);
  expect(
    defined(
      equipmentCostAsOf(data.view(edition.publishedOn, LOADED_AT)),
      "equipmentCostAsOf(data.view(edition.publishedOn, LOADED_AT))",
    ).edition.edition,
  ).toBe(2025);
});

test("between editions the figure is carried forward by the heavy-truck PPI published by then, and says so", async () => {
  const view = data.view("2022-07-01", LOADED_AT);
  const cost = defined(equipmentCostAsOf(view), "equipmentCostAsOf(view)");
  const newest = defined(
    editions.filter((e) => e.publishedOn <= "2022-07-01").at(-1),
    'the last of editions.filter((e) => e.publishedOn <= "2022-07-01")',
  );
  expect(cost.edition).toBe(newest);
  const year = newest.dataYear;
  const months = view.history(EQUIPMENT_COST_INDEX, `${year}-01-01`).filter((o) => o.observedOn <= `${year}-12-31`);
  const base = months.reduce((sum, o) => sum + o.value, 0) / months.length;
  const latest = defined(view.latest(EQUIPMENT_COST_INDEX), "view.latest(EQUIPMENT_COST_INDEX)");
  expect(cost.carriedForward).toMatchObject({ latest, ratio: latest.value / base });
  expect(cost.perMile).toBeCloseTo(cost.edition.equipmentPerMile * (latest.value / base), 10);
  expect(cost.description).toContain(`carried forward x${(latest.value / base).toFixed(4)}`);
});

test("before any edition was published there is no equipment cost", async () => {
  expect(equipmentCostAsOf(data.view("2018-09-30", LOADED_AT))).toBeUndefined();
});
