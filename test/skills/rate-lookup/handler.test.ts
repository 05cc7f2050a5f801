import { describe, expect, test } from "bun:test";
import { ApiError } from "../../../src/errors.ts";
import { dataImport } from "../../../src/cli/data.ts";
import { rateLookupSkill } from "../../../src/skills/rate-lookup/skill.ts";
import { RATE_MODEL } from "../../../src/skills/rate-lookup/constants.ts";
import { fixture, LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";
import { skillContext } from "../../support/skill-call.ts";

const { db, data } = snapshotReferenceData();
type Input = Parameters<typeof rateLookupSkill.handler>[0];

/** The pipeline's call: a view pinned to the request's as_of (or today), known as of now. */
function lookup(input: Input, now = LOADED_AT) {
  const asOf = rateLookupSkill.asOf?.(input) ?? new Date(now).toISOString().slice(0, 10);
  return rateLookupSkill.handler(input, skillContext(data, data.view(asOf, now)));
}

function refusal(input: Input, now = LOADED_AT): ApiError {
  try {
    lookup(input, now);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("lane distances come out near real truck-route mileage", () => {
  // Approximate truck-route miles of well-known lanes; the model should be within 8%.
  test.each([
    ["Chicago, IL", "Dallas, TX", 947],
    ["Los Angeles, CA", "Phoenix, AZ", 372],
    ["Atlanta, GA", "New York, NY", 870],
    ["Chicago, IL", "Los Angeles, CA", 2015],
    ["Denver, CO", "Chicago, IL", 1003],
  ])("%s -> %s ~ %d mi", (origin, destination, roadMiles) => {
    const { answer } = lookup({ origin, destination, equipment: "DRY_VAN" });
    expect(answer.distance_method).toBe("GREAT_CIRCLE_X_CIRCUITY");
    expect(Math.abs(answer.miles - roadMiles) / roadMiles).toBeLessThan(0.08);
  });

  test("miles overrides the estimate", () => {
    const { answer } = lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", miles: 967 });
    expect(answer).toMatchObject({ miles: 967, distance_method: "CALLER_PROVIDED" });
    expect(answer.total_cost).toBeCloseTo(answer.rate_per_mile * 967, 0);
  });
});

describe("the answer", () => {
  const asOf = "2025-06-30";
  const { answer, factorVersions, modelVersion } = lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: asOf });

  test("has the seed's fields and the product's additions", () => {
    expect(answer).toMatchObject({
      type: "COST_BASIS",
      as_of: asOf,
      origin: { city: "Chicago", state: "IL", padd: "2" },
      destination: { city: "Dallas", state: "TX", padd: "3" },
      confidence: { level: expect.stringMatching(/^(HIGH|MEDIUM|LOW)$/) },
      model_version: RATE_MODEL.version,
    });
    expect(answer.confidence.score).toBeGreaterThanOrEqual(0);
    expect(answer.confidence.score).toBeLessThanOrEqual(1);
    expect(answer.confidence.reasons.length).toBeGreaterThan(0);
    expect(modelVersion).toBe(RATE_MODEL.version);
  });

  test("diesel is the average of the origin's and destination's PADD prices for the week", () => {
    const midwest = data.view(asOf, LOADED_AT).latest("EMD_EPD2D_PTE_R20_DPG")!;
    const gulf = data.view(asOf, LOADED_AT).latest("EMD_EPD2D_PTE_R30_DPG")!;
    expect(midwest.observedOn).toBe("2025-06-30"); // an EIA survey Monday
    expect(answer.data_sources.diesel_price).toBeCloseTo((midwest.value + gulf.value) / 2, 4);
    expect(answer.data_sources.diesel_source).toContain("EMD_EPD2D_PTE_R20_DPG");
    expect(answer.data_sources.labor_rate).toBe(28.75); // Illinois OEWS May 2024 hourly median
    expect(factorVersions.map((f) => f.series_id)).toEqual(["EMD_EPD2D_PTE_R20_DPG", "EMD_EPD2D_PTE_R30_DPG", "OEUS170000000000053303208"]);
    expect(factorVersions.every((f) => f.import_id === "imp_snapshot_2026-11-22" && f.observation_date <= asOf)).toBe(true);
  });

  test("the breakdown adds up to the rate", () => {
    const sum = Object.values(answer.breakdown).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(answer.rate_per_mile, 2);
    expect(answer.breakdown.reefer_fuel).toBe(0);
    expect(answer.breakdown.fuel_surcharge).toBe(0);
  });

  test("the same input and view give the same answer", () => {
    expect(lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: asOf }).answer).toEqual(answer);
  });
});

describe("equipment, mode and surcharge", () => {
  const base = { origin: "Chicago, IL", destination: "Dallas, TX", as_of: "2025-06-30", miles: 950 } as const;
  const van = lookup({ ...base, equipment: "DRY_VAN" }).answer;

  test("reefer adds unit fuel and the 1.18 multiplier; flatbed burns more fuel", () => {
    const reefer = lookup({ ...base, equipment: "REEFER" }).answer;
    const flatbed = lookup({ ...base, equipment: "FLATBED" }).answer;
    expect(reefer.breakdown.reefer_fuel).toBeGreaterThan(0.03);
    expect(reefer.multipliers.equipment).toBe(1.18);
    expect(reefer.factor_versions.map((f) => f.series_id)).toContain("FHWA_MF121T_DIESEL_IL");
    expect(flatbed.breakdown.fuel / 1.12).toBeGreaterThan(van.breakdown.fuel);
    expect(reefer.rate_per_mile).toBeGreaterThan(flatbed.rate_per_mile);
  });

  test("mode multipliers", () => {
    const ltl = lookup({ ...base, equipment: "DRY_VAN", mode: "LTL" }).answer;
    const intermodal = lookup({ ...base, equipment: "DRY_VAN", mode: "INTERMODAL" }).answer;
    expect(ltl.rate_per_mile).toBeCloseTo(van.rate_per_mile * 1.35, 2);
    expect(intermodal.rate_per_mile).toBeCloseTo(van.rate_per_mile * 0.82, 2);
  });

  test("fuel surcharge = (diesel - 1.25) / 6 per mile", () => {
    const withFsc = lookup({ ...base, equipment: "DRY_VAN", include_fuel_surcharge: true }).answer;
    expect(withFsc.breakdown.fuel_surcharge).toBeCloseTo((van.data_sources.diesel_price - 1.25) / 6, 3);
    expect(withFsc.rate_per_mile - van.rate_per_mile).toBeCloseTo(withFsc.breakdown.fuel_surcharge, 2);
  });
});

describe("diesel fallback and confidence", () => {
  test("current regional data, exact places, interstate lane: HIGH", () => {
    const { answer } = lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: "2026-09-22" });
    expect(answer.confidence.level).toBe("HIGH");
  });

  test("when the regional series lags the national one, the U.S. price is used and confidence drops", () => {
    // Regional weeks end 2026-09-21; the national series runs to 2026-10-05.
    const { answer, factorVersions } = lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: "2026-10-06" });
    expect(factorVersions[0]).toMatchObject({ series_id: "EMD_EPD2D_PTE_NUS_DPG", observation_date: "2026-10-05" });
    expect(answer.confidence.reasons.join(" ")).toContain("no current regional diesel price");
  });

  test("a misspelt place and a short lane lower the score", () => {
    const exact = lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: "2026-09-22" }).answer;
    const fuzzy = lookup({ origin: "Chicgo, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: "2026-09-22" }).answer;
    const short = lookup({ origin: "Dallas, TX", destination: "Fort Worth, TX", equipment: "DRY_VAN", as_of: "2026-09-22" }).answer;
    expect(fuzzy.origin.resolution).toBe("fuzzy");
    expect(fuzzy.confidence.score).toBeLessThan(exact.confidence.score);
    expect(short.confidence.score).toBeLessThan(exact.confidence.score);
  });

  test("a USDA AMS reefer observation for the lane anchors the answer", () => {
    const { db: amsDb, data: amsData } = snapshotReferenceData(Date.parse("2026-09-01T00:00:00Z"));
    const importedAt = Date.parse("2026-09-21T06:00:00Z");
    expect(dataImport(amsDb, "ams", fixture("ams_mymarketnews_reefer.json"), { now: importedAt }).exitCode).toBe(0);
    const input = { origin: "Fresno, CA", destination: "Chicago, IL", equipment: "REEFER", as_of: "2026-09-21" } as const;
    const anchored = rateLookupSkill.handler(input, skillContext(amsData, amsData.view("2026-09-21", importedAt + 1))).answer;
    expect(anchored.confidence.level).toBe("AMS_ANCHORED");
    expect(anchored.market_anchor).toMatchObject({ rate_per_mile: 3.397, observation_date: "2026-09-18" });
    expect(anchored.factor_versions.map((f) => f.series_id)).toContain("AMS_REEFER_RPM_CA_CHICAGO_IL");
    // Known only after the import, and only for reefer: no anchor otherwise.
    expect(rateLookupSkill.handler(input, skillContext(amsData, amsData.view("2026-09-21", importedAt - 1))).answer.confidence.level).not.toBe("AMS_ANCHORED");
    expect(rateLookupSkill.handler({ ...input, equipment: "DRY_VAN" }, skillContext(amsData, amsData.view("2026-09-21", importedAt + 1))).answer.confidence.level).not.toBe("AMS_ANCHORED");
    // Observations older than the anchor window do not anchor.
    expect(rateLookupSkill.handler({ ...input, as_of: "2026-11-20" }, skillContext(amsData, amsData.view("2026-11-20", LOADED_AT))).answer.market_anchor).toBeUndefined();
  });
});

describe("refusals", () => {
  const base = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" } as const;

  test("unresolvable place: 422 with suggestions", () => {
    const error = refusal({ ...base, destination: "Dalas, TZ" });
    expect(error.status).toBe(422);
    expect(error.body("req")).toMatchObject({ error: "UNRESOLVED_LOCATION", field: "destination", input: "Dalas, TZ" });
    expect((error.body("req").suggestions as string[]).length).toBeGreaterThan(0);
  });

  test.each([
    [{ ...base, destination: "chicago il" }, "destination", /same place as origin/],
    [{ ...base, miles: 0 }, "miles", /greater than 0/],
    [{ ...base, miles: -5 }, "miles", /greater than 0/],
    [{ ...base, miles: 12000 }, "miles", /at most 5000/],
    [{ ...base, as_of: "2001-01-01" }, "as_of", /before the data starts/],
    [{ ...base, equipment: "TANKER" as "DRY_VAN" }, "equipment", /DRY_VAN, REEFER, FLATBED/],
    [{ ...base, mode: "AIR" as "FTL" }, "mode", /FTL, LTL, INTERMODAL/],
  ])("%o -> 400 on %s", (input, field, problem) => {
    const error = refusal(input);
    expect(error.status).toBe(400);
    const details = error.body("req").details as { field: string; problem: string }[];
    expect(details[0]!.field).toBe(field);
    expect(details[0]!.problem).toMatch(problem);
  });

  test("a refused call writes nothing", () => {
    const before = db.$client.prepare("SELECT count(*) AS n FROM observations").get();
    refusal({ ...base, miles: -1 });
    expect(db.$client.prepare("SELECT count(*) AS n FROM observations").get()).toEqual(before);
  });
});
