import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { fuelSurchargeSkill } from "../../../src/skills/fuel-surcharge/skill.ts";
import { RATE_MODEL } from "../../../src/skills/rate-lookup/constants.ts";
import type { AnyReadingSkill } from "../../../src/skills/types.ts";
import { snapshotReferenceData } from "../../reference/helpers.ts";
import { callSkill, detailsOf, refusalOf } from "../../support/skill-call.ts";
import { snapshotImportId } from "../../../src/reference/snapshot/index.ts";

const { data } = await snapshotReferenceData();
const skill = fuelSurchargeSkill as unknown as AnyReadingSkill;
const surcharge = (raw: Record<string, unknown>) => {
  const result = callSkill(skill, data, raw);
  return { ...result, answer: result.answer as ReturnType<typeof fuelSurchargeSkill.handler>["answer"] };
};
const SNAPSHOT_IMPORT = snapshotImportId();

describe("per mile, from the snapshot's EIA weeks", () => {
  // U.S. average for the week of 2026-09-21: 6.529 $/gal; dry van 6.9 mpg.
  const { answer, factorVersions, modelVersion } = surcharge({ region: "NATIONAL", as_of: "2026-09-22" });

  test("(6.529 - 1.25) / 6.9 per mile, defaults written out", async () => {
    expect(answer.surcharge_per_mile).toBeCloseTo((6.529 - 1.25) / 6.9, 4);
    expect(answer).toMatchObject({
      formula: "PER_MILE",
      equipment: "DRY_VAN",
      baseline: 1.25,
      mpg_divisor: 6.9,
      mpg_divisor_source: "EQUIPMENT_DEFAULT",
      diesel: {
        price_per_gallon: 6.529,
        region: "NATIONAL",
        series_id: "EMD_EPD2D_PTE_NUS_DPG",
        observation_date: "2026-09-21",
      },
    });
    expect(answer.calculation).toBe("max(0, (6.529 - 1.25) / 6.9) = 0.7651 USD/mile");
    expect(answer.total_surcharge).toBeUndefined();
    expect(answer.surcharge_percent).toBeUndefined();
  });

  test("the factor version is the one observation used; the model version names the rate-lookup table", async () => {
    expect(factorVersions).toEqual([
      { series_id: "EMD_EPD2D_PTE_NUS_DPG", value: 6.529, observation_date: "2026-09-21", import_id: SNAPSHOT_IMPORT },
    ]);
    expect(answer.factor_versions).toEqual(factorVersions);
    expect(modelVersion).toContain(RATE_MODEL.version);
  });

  test("the answer matches the declared output schema", async () => {
    expect(Value.Check(fuelSurchargeSkill.output, answer)).toBe(true);
  });

  test("as_of one day before the survey Monday uses the previous week", async () => {
    const earlier = surcharge({ region: "NATIONAL", as_of: "2026-09-20" }).answer;
    expect(earlier.diesel).toMatchObject({ price_per_gallon: 6.285, observation_date: "2026-09-14" });
    expect(earlier.surcharge_per_mile).toBeCloseTo((6.285 - 1.25) / 6.9, 4);
  });

  test("equipment sets the divisor; mpg_divisor and baseline override", async () => {
    expect(
      surcharge({ region: "NATIONAL", as_of: "2026-09-22", equipment: "REEFER" }).answer.surcharge_per_mile,
    ).toBeCloseTo((6.529 - 1.25) / 6.33, 4);
    expect(
      surcharge({ region: "NATIONAL", as_of: "2026-09-22", equipment: "FLATBED" }).answer.surcharge_per_mile,
    ).toBeCloseTo((6.529 - 1.25) / 5.8, 4);
    const custom = surcharge({ region: "NATIONAL", as_of: "2026-09-22", mpg_divisor: 6, baseline: 2.5 }).answer;
    expect(custom.surcharge_per_mile).toBeCloseTo((6.529 - 2.5) / 6, 4);
    expect(custom.mpg_divisor_source).toBe("CALLER_PROVIDED");
  });

  test("no negative surcharge when diesel is under the baseline", async () => {
    expect(surcharge({ region: "NATIONAL", as_of: "2026-09-22", baseline: 7 }).answer.surcharge_per_mile).toBe(0);
  });

  test("miles add the trip total", async () => {
    const trip = surcharge({ region: "NATIONAL", as_of: "2026-09-22", miles: 500 }).answer;
    expect(trip.total_surcharge).toBeCloseTo(((6.529 - 1.25) / 6.9) * 500, 2); // 382.54
    expect(trip.calculation).toContain("x 500 miles = 382.54 USD");
  });
});

describe("PERCENTAGE", () => {
  test("the trip's surcharge over the base freight charge", async () => {
    const { answer } = surcharge({
      region: "NATIONAL",
      as_of: "2026-09-22",
      formula: "PERCENTAGE",
      miles: 500,
      base_freight_charge: 2000,
    });
    expect(answer.total_surcharge).toBe(382.54);
    expect(answer.surcharge_percent).toBeCloseTo((((6.529 - 1.25) / 6.9) * 500 * 100) / 2000, 2); // 19.13 %
    expect(answer.base_freight_charge).toBe(2000);
    expect(answer.calculation).toEndWith("/ 2000.00 USD base freight charge = 19.13 %");
  });
});

describe("where the price comes from", () => {
  test("an origin uses its state's EIA area", async () => {
    const { answer, factorVersions } = surcharge({ origin: "Chicago, IL", as_of: "2025-06-30" });
    expect(answer.origin).toMatchObject({ city: "Chicago", state: "IL", padd: "2", resolution: "exact" });
    expect(answer.diesel).toMatchObject({
      region: "PADD2",
      requested_region: "PADD2",
      price_per_gallon: 3.715,
      observation_date: "2025-06-30",
    });
    expect(answer.diesel.fallback_reason).toBeUndefined();
    expect(answer.surcharge_per_mile).toBeCloseTo((3.715 - 1.25) / 6.9, 4);
    expect(factorVersions.map((f) => f.series_id)).toEqual(["EMD_EPD2D_PTE_R20_DPG"]);
  });

  test("sub-regions and California have their own series", async () => {
    expect(surcharge({ region: "PADD1A", as_of: "2026-09-22" }).answer.diesel).toMatchObject({
      series_id: "EMD_EPD2D_PTE_R1X_DPG",
      price_per_gallon: 6.517,
    });
    expect(surcharge({ region: "CALIFORNIA", as_of: "2026-09-22" }).answer.diesel).toMatchObject({
      series_id: "EMD_EPD2D_PTE_SCA_DPG",
      price_per_gallon: 8.246,
    });
  });

  test("a regional series that lags the U.S. one falls back to the U.S. price, and says so", async () => {
    // Regional weeks end 2026-09-21; the U.S. series runs to 2026-10-05.
    const { answer, factorVersions } = surcharge({ origin: "Chicago, IL", as_of: "2026-10-06" });
    expect(answer.diesel).toMatchObject({
      region: "NATIONAL",
      requested_region: "PADD2",
      price_per_gallon: 6.199,
      observation_date: "2026-10-05",
    });
    expect(answer.diesel.fallback_reason).toContain("Midwest (PADD 2)");
    expect(factorVersions).toEqual([
      { series_id: "EMD_EPD2D_PTE_NUS_DPG", value: 6.199, observation_date: "2026-10-05", import_id: SNAPSHOT_IMPORT },
    ]);
  });
});

describe("refusals", () => {
  const refused = (raw: Record<string, unknown>) => refusalOf(() => surcharge(raw));

  test("neither origin nor region: 400 listing the regions", async () => {
    const error = refused({ as_of: "2026-09-22" });
    expect(error.status).toBe(400);
    expect(detailsOf(error)[0]).toMatchObject({
      field: "region",
      allowed: expect.arrayContaining(["NATIONAL", "PADD1A", "CALIFORNIA", "PADD5_EX_CA"]),
    });
  });

  test("an unknown region or formula: 400 with the allowed values (from the schema)", async () => {
    expect(detailsOf(refused({ region: "PADD9" }))[0]).toMatchObject({
      field: "region",
      allowed: expect.arrayContaining(["PADD5", "PADD5_EX_CA"]),
    });
    expect(detailsOf(refused({ region: "NATIONAL", formula: "FLAT" }))[0]).toMatchObject({
      field: "formula",
      allowed: ["PER_MILE", "PERCENTAGE"],
    });
    expect(detailsOf(refused({ region: "NATIONAL", equipment: "TANKER" }))[0]).toMatchObject({
      field: "equipment",
      allowed: ["DRY_VAN", "REEFER", "FLATBED"],
    });
  });

  test.each([
    [{ origin: "Chicago, IL", region: "PADD2" }, "region", /not both/],
    [
      { region: "NATIONAL", formula: "PERCENTAGE", miles: 500 },
      "base_freight_charge",
      /required with formula PERCENTAGE/,
    ],
    [
      { region: "NATIONAL", formula: "PERCENTAGE", base_freight_charge: 2000 },
      "miles",
      /required with formula PERCENTAGE/,
    ],
    [{ region: "NATIONAL", base_freight_charge: 2000 }, "base_freight_charge", /only used with formula PERCENTAGE/],
    [{ region: "NATIONAL", miles: 0 }, "miles", /greater than 0/],
    [{ region: "NATIONAL", miles: 9000 }, "miles", /at most 5000/],
    [{ region: "NATIONAL", mpg_divisor: 0 }, "mpg_divisor", /greater than 0/],
    [{ region: "NATIONAL", baseline: -1 }, "baseline", /at least 0/],
    [{ region: "NATIONAL", baseline: 125 }, "baseline", /at most 10/],
    [{ region: "NATIONAL", as_of: "1994-03-01" }, "as_of", /before the data starts/],
    [{ region: "NATIONAL", miles_total: 5 }, "miles_total", /not a known field/],
  ])("%o -> 400 on %s", (raw, field, problem) => {
    const error = refused(raw);
    expect(error.status).toBe(400);
    const detail = detailsOf(error).find((d) => d.field === field);
    expect(detail?.problem).toMatch(problem);
  });

  test("an origin that is no US place: 422 with suggestions", async () => {
    const error = refused({ origin: "Chicgoo, IX" });
    expect(error.status).toBe(422);
    expect(error.body("req")).toMatchObject({ error: "UNRESOLVED_LOCATION", field: "origin", input: "Chicgoo, IX" });
  });
});
