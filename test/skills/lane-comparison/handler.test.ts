import { describe, expect, test } from "bun:test";
import { round } from "../../../src/skills/kit.ts";
import { laneComparisonSkill } from "../../../src/skills/lane-comparison/skill.ts";
import { rateLookupSkill } from "../../../src/skills/rate-lookup/skill.ts";
import type { AnyReadingSkill } from "../../../src/skills/types.ts";
import { LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";
import { callSkill, detailsOf, refusalOf, skillContext } from "../../support/skill-call.ts";
import { defined } from "../../support/defined.ts";

const { data } = await snapshotReferenceData();
const compare = (raw: unknown) =>
  callSkill(laneComparisonSkill as unknown as AnyReadingSkill, data, raw) as ReturnType<
    typeof laneComparisonSkill.handler
  >;
type LookupInput = Parameters<typeof rateLookupSkill.handler>[0];
const lookup = (input: LookupInput) =>
  rateLookupSkill.handler(input, skillContext(data, data.view(defined(input.as_of, "input.as_of"), LOADED_AT))).answer;

const AS_OF = "2025-06-30";
const CHICAGO_DALLAS = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" } as const;
const LA_PHOENIX = { origin: "Los Angeles, CA", destination: "Phoenix, AZ", equipment: "REEFER" } as const;
const ATLANTA_NEW_YORK = {
  origin: "Atlanta, GA",
  destination: "New York, NY",
  equipment: "FLATBED",
  label: "east",
} as const;

describe("two lanes ranked against two rate-lookup answers", () => {
  const van = lookup({ ...CHICAGO_DALLAS, as_of: AS_OF });
  const reefer = lookup({ ...LA_PHOENIX, as_of: AS_OF });
  const { answer, factorVersions } = compare({ lanes: [LA_PHOENIX, CHICAGO_DALLAS], as_of: AS_OF });

  test("each lane carries rate-lookup's own figures", async () => {
    const byPosition = (position: number) =>
      defined(
        answer.lanes.find((lane) => lane.position === position),
        "the answer.lanes entry where lane.position === position",
      );
    expect(byPosition(0)).toMatchObject({
      rate_per_mile: reefer.rate_per_mile,
      total_cost: reefer.total_cost,
      miles: reefer.miles,
    });
    expect(byPosition(1)).toMatchObject({
      rate_per_mile: van.rate_per_mile,
      total_cost: van.total_cost,
      miles: van.miles,
    });
    expect(byPosition(1).confidence).toEqual({ level: van.confidence.level, score: van.confidence.score });
  });

  test("the cheaper rate per mile ranks first, with deltas worked out by hand", async () => {
    const [cheap, dear] = van.rate_per_mile < reefer.rate_per_mile ? [van, reefer] : [reefer, van];
    expect(cheap.rate_per_mile).not.toBe(dear.rate_per_mile);
    const mean = (cheap.rate_per_mile + dear.rate_per_mile) / 2;
    expect(answer.lanes.map((lane) => [lane.rank, lane.rate_per_mile])).toEqual([
      [1, cheap.rate_per_mile],
      [2, dear.rate_per_mile],
    ]);
    expect(defined(answer.lanes[0], "answer.lanes[0]").delta_vs_cheapest).toEqual({ absolute: 0, percent: 0 });
    expect(defined(answer.lanes[1], "answer.lanes[1]").delta_vs_cheapest.absolute).toBeCloseTo(
      round(dear.rate_per_mile - cheap.rate_per_mile, 3),
      9,
    );
    expect(defined(answer.lanes[1], "answer.lanes[1]").delta_vs_cheapest.percent).toBeCloseTo(
      ((dear.rate_per_mile - cheap.rate_per_mile) / cheap.rate_per_mile) * 100,
      2,
    );
    // The answer rounds half up to 3 decimals: compare with the same rounding, not within 0.0005 of the raw delta.
    expect(defined(answer.lanes[0], "answer.lanes[0]").delta_vs_mean.absolute).toBeCloseTo(
      round(cheap.rate_per_mile - mean, 3),
      9,
    );
    expect(defined(answer.lanes[1], "answer.lanes[1]").delta_vs_mean.percent).toBeCloseTo(
      ((dear.rate_per_mile - mean) / mean) * 100,
      2,
    );
    expect(answer.summary).toMatchObject({
      cheapest: { value: cheap.rate_per_mile },
      most_expensive: { value: dear.rate_per_mile },
    });
    expect(answer.summary.mean).toBeCloseTo(mean, 2); // the mean of unrounded rates vs of rounded ones
  });

  test("factor versions are both lookups' factors, each once", async () => {
    const key = (f: { series_id: string; observation_date: string }) => `${f.series_id}|${f.observation_date}`;
    const expected = new Set([...van.factor_versions, ...reefer.factor_versions].map(key));
    expect(new Set(factorVersions.map(key))).toEqual(expected);
    expect(factorVersions.length).toBe(expected.size);
    expect(factorVersions.every((f) => f.observation_date <= AS_OF)).toBe(true);
  });
});

test("sort_by total_cost ranks on the load's cost and takes deltas in dollars", async () => {
  const lanes = [CHICAGO_DALLAS, { origin: "Chicago, IL", destination: "Milwaukee, WI", equipment: "DRY_VAN" }];
  const { answer } = compare({ lanes, sort_by: "total_cost", as_of: AS_OF });
  const short = lookup({ ...defined(lanes[1], "lanes[1]"), equipment: "DRY_VAN", as_of: AS_OF });
  const long = lookup({ ...CHICAGO_DALLAS, as_of: AS_OF });
  expect(answer.sort_by).toBe("total_cost");
  expect(answer.lanes.map((lane) => lane.position)).toEqual([1, 0]);
  expect(defined(answer.lanes[1], "answer.lanes[1]").delta_vs_cheapest.absolute).toBeCloseTo(
    long.total_cost - short.total_cost,
    2,
  );
  expect(answer.summary.cheapest).toEqual({ position: 1, value: short.total_cost });
});

test("a repeated lane shares its rank and labels are echoed", async () => {
  const { answer } = compare({ lanes: [ATLANTA_NEW_YORK, CHICAGO_DALLAS, ATLANTA_NEW_YORK], as_of: AS_OF });
  const twins = answer.lanes.filter((lane) => lane.label === "east");
  expect(twins).toHaveLength(2);
  expect(defined(twins[0], "twins[0]").rank).toBe(defined(twins[1], "twins[1]").rank);
  expect(twins.map((lane) => lane.position)).toEqual([0, 2]);
  expect(answer.lanes.map((lane) => lane.rank).sort()).toEqual(
    defined(twins[0], "twins[0]").rank === 1 ? [1, 1, 3] : [1, 2, 2],
  );
});

test("the fuel surcharge option reaches every lane", async () => {
  const lanes = [CHICAGO_DALLAS, LA_PHOENIX];
  const withSurcharge = compare({ lanes, as_of: AS_OF, include_fuel_surcharge: true }).answer;
  expect(withSurcharge.include_fuel_surcharge).toBe(true);
  lanes.forEach((request, position) => {
    const surcharged = lookup({ ...request, as_of: AS_OF, include_fuel_surcharge: true });
    expect(surcharged.breakdown.fuel_surcharge).toBeGreaterThan(0);
    expect(
      defined(
        withSurcharge.lanes.find((lane) => lane.position === position),
        "the withSurcharge.lanes entry where lane.position === position",
      ).rate_per_mile,
    ).toBe(surcharged.rate_per_mile);
  });
});

describe("refusals name the lane", () => {
  test.each([
    [0, "origin", { ...CHICAGO_DALLAS, origin: "Qwxzv, ZZ" }],
    [1, "destination", { ...CHICAGO_DALLAS, destination: "Nowhereville Qqq" }],
  ] as const)("lane %d's unresolvable %s is a 422 on lanes.<i>.<field>", (position, field, bad) => {
    const lanes = position === 0 ? [bad, CHICAGO_DALLAS] : [CHICAGO_DALLAS, bad];
    const error = refusalOf(() => compare({ lanes }));
    expect(error.status).toBe(422);
    expect(error.body("req")).toMatchObject({ error: "UNRESOLVED_LOCATION", field: `lanes.${position}.${field}` });
  });

  test("miles out of range and a lane from a place to itself", async () => {
    const miles = refusalOf(() => compare({ lanes: [CHICAGO_DALLAS, { ...CHICAGO_DALLAS, miles: 9000 }] }));
    expect(detailsOf(miles).map((d) => d.field)).toEqual(["lanes.1.miles"]);
    const sameCity = refusalOf(() =>
      compare({ lanes: [{ ...CHICAGO_DALLAS, destination: "Chicago, IL" }, CHICAGO_DALLAS] }),
    );
    expect(detailsOf(sameCity).map((d) => d.field)).toEqual(["lanes.0.destination"]);
  });

  test("a lane without equipment is refused, not defaulted; unknown lane fields are refused", async () => {
    const { equipment: _, ...noEquipment } = CHICAGO_DALLAS;
    const missing = refusalOf(() => compare({ lanes: [CHICAGO_DALLAS, noEquipment] }));
    expect(detailsOf(missing)).toContainEqual(expect.objectContaining({ field: "lanes.1.equipment" }));
    const unknown = refusalOf(() => compare({ lanes: [{ ...CHICAGO_DALLAS, weight: 40000 }, CHICAGO_DALLAS] }));
    expect(detailsOf(unknown).map((d) => d.field)).toContain("lanes.0.weight");
  });
});

describe("2 to 25 lanes", () => {
  test.each([0, 1, 26])("%d lanes are refused on the lanes field", (count) => {
    const error = refusalOf(() => compare({ lanes: Array.from({ length: count }, () => CHICAGO_DALLAS) }));
    expect(error.status).toBe(400);
    expect(detailsOf(error).map((d) => d.field)).toEqual(["lanes"]);
  });

  test.each([2, 25])("%d lanes are answered", (count) => {
    const { answer } = compare({ lanes: Array.from({ length: count }, () => CHICAGO_DALLAS) });
    expect(answer.lanes).toHaveLength(count);
    expect(answer.lanes.every((lane) => lane.rank === 1 && lane.delta_vs_mean.absolute === 0)).toBe(true);
  });
});
