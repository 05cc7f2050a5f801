import { expect, test } from "bun:test";
import { RATE_MODEL } from "../../../src/skills/rate-lookup/constants.ts";
import { describeCarry, driverWageAsOf } from "../../../src/skills/rate-lookup/driver-wage.ts";
import type { Observation } from "../../../src/reference/storage/view.ts";
import { defined } from "../../support/defined.ts";

const wage = (observedOn: string, value = 20): Observation =>
  ({ seriesId: "OEUN000000000000053303208", observedOn, value }) as unknown as Observation;
const editions = RATE_MODEL.atriEditions.value;

test("a wage no older than the newest ATRI edition's data year is used as published", () => {
  const newest = defined(editions.at(-1), "the newest ATRI edition");
  const result = driverWageAsOf(wage(`${newest.dataYear}-05-01`), "2100-01-01");
  expect(result).toEqual({ hourly: 20 });
  expect(describeCarry(result)).toBe("");
});

test("an older wage is carried forward by ATRI driver cost per mile, only with editions published by then", () => {
  const [older, newer] = editions.slice(-2) as [(typeof editions)[number], (typeof editions)[number]];
  const asOfBoth = newer.publishedOn;
  const carried = driverWageAsOf(wage(`${older.dataYear}-05-01`), asOfBoth);
  expect(carried.carriedForward).toMatchObject({ from: older, to: newer });
  expect(carried.hourly).toBeCloseTo((20 * newer.driverPerMile) / older.driverPerMile, 10);
  expect(describeCarry(carried)).toContain(`${newer.edition} edition`);

  const dayBefore = new Date(Date.parse(newer.publishedOn) - 86_400_000).toISOString().slice(0, 10);
  expect(driverWageAsOf(wage(`${older.dataYear}-05-01`), dayBefore)).toEqual({ hourly: 20 });
});
