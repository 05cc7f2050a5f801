import { describe, expect, test } from "bun:test";
import { ApiError } from "../../../src/errors.ts";
import { rateLookupSkill } from "../../../src/skills/rate-lookup/skill.ts";
import { RATE_MODEL } from "../../../src/skills/rate-lookup/constants.ts";
import { appendObservations } from "../../../src/reference/storage/append.ts";
import { greatCircleMiles } from "../../../src/reference/geo/distance.ts";
import { embeddedRoadNetwork } from "../../../src/reference/roads/index.ts";
import { ROAD_RULES } from "../../../src/reference/roads/road-miles.ts";
import { amsFvwtrkSeries } from "../../../src/reference/series/series-ids.ts";
import { fuelSurchargeSkill } from "../../../src/skills/fuel-surcharge/skill.ts";
import { LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";
import { skillContext } from "../../support/skill-call.ts";
import { snapshotImportId } from "../../../src/reference/snapshot/index.ts";

const { db, data } = await snapshotReferenceData();
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

describe("lane distances", () => {
  test("come from the embedded road network, with the local legs to it and the network's version", async () => {
    const { answer } = lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" });
    expect(answer.distance_method).toBe("ROAD_NETWORK");
    expect(answer.distance.road_network).toBe(embeddedRoadNetwork().version);
    expect(answer.distance.connector_miles!.origin).toBeGreaterThanOrEqual(0);
    expect(answer.distance.fallback_reason).toBeUndefined();
    expect(answer.confidence.reasons.join(" ")).not.toContain("great-circle");
  });

  test("a place far from any Interstate falls back to great-circle x circuity, says why, and costs confidence", async () => {
    const onNetwork = lookup({
      origin: "Miami, FL",
      destination: "Atlanta, GA",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    const { answer } = lookup({
      origin: "Key West, FL",
      destination: "Atlanta, GA",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    });
    expect(onNetwork.distance_method).toBe("ROAD_NETWORK");
    expect(answer.distance_method).toBe("GREAT_CIRCLE_X_CIRCUITY");
    expect(answer.distance.fallback_reason).toMatch(/origin is \d+ mi from the nearest Interstate/);
    expect(answer.confidence.reasons.join(" ")).toContain("great-circle miles and a circuity factor");
    expect(answer.confidence.score).toBeLessThan(onNetwork.confidence.score);
    // Its long haul is still Interstate: the rate model's circuity, not the detour fallback's.
    expect(answer.miles).toBeCloseTo(
      greatCircleMiles(answer.origin, answer.destination) * RATE_MODEL.circuity.value.interstate,
      0,
    );
  });

  test("a lane the Interstates serve only by an implausible detour falls back (Phoenix-Las Vegas runs on US-93)", () => {
    const { answer } = lookup({
      origin: "Phoenix, AZ",
      destination: "Las Vegas, NV",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    });
    expect(answer.distance_method).toBe("GREAT_CIRCLE_X_CIRCUITY");
    expect(answer.distance.fallback_reason).toMatch(/straight-line distance \(over 1.45x\)/);
    // The real road crosses the corridor on US highways: the straight line x the detour fallback's circuity.
    expect(answer.miles).toBeCloseTo(
      greatCircleMiles(answer.origin, answer.destination) * ROAD_RULES.detourFallbackCircuity.value,
      0,
    );
  });

  test("a lane round a lake is priced on the network as it is", () => {
    const roundTheLake = lookup({
      origin: "Detroit, MI",
      destination: "Cleveland, OH",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    expect(roundTheLake.distance_method).toBe("ROAD_NETWORK");
    expect(roundTheLake.distance.bound_reason).toBeUndefined();
    expect(roundTheLake.confidence.reasons.join("; ")).not.toMatch(/shorter road the network lacks|road miles bounded/);
  });

  test("a route that goes round a road the network lacks is bounded, says where, and costs confidence", () => {
    // The network goes round by Casa Grande on I-10 and I-8; trucks take AZ-85 from Buckeye to Gila Bend.
    const withoutAz85 = lookup({
      origin: "Phoenix, AZ",
      destination: "San Diego, CA",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    const onNetwork = lookup({
      origin: "Los Angeles, CA",
      destination: "Phoenix, AZ",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    expect(withoutAz85.distance_method).toBe("ROAD_NETWORK_BOUNDED");
    expect(withoutAz85.distance.bound_reason).toMatch(
      /goes \d+ mi round between .* \d+ mi apart in a straight line over land/,
    );
    expect(withoutAz85.confidence.reasons.join("; ")).toMatch(
      /road miles bounded: the Interstate route goes \d+ mi round/,
    );
    // Bounded: shorter than the network's own way round, never shorter than the straight line.
    const crow = greatCircleMiles(withoutAz85.origin, withoutAz85.destination);
    expect(withoutAz85.miles).toBeGreaterThan(crow);
    expect(withoutAz85.confidence.score).toBeLessThan(onNetwork.confidence.score);
  });

  test("a corridor-scale way round over open country is bounded by the US highway the network lacks (Dallas-Tulsa, US-75)", () => {
    const viaOklahomaCity = lookup({
      origin: "Dallas, TX",
      destination: "Tulsa, OK",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    expect(viaOklahomaCity.distance_method).toBe("ROAD_NETWORK_BOUNDED");
    expect(viaOklahomaCity.distance.bound_reason).toMatch(
      /\d+ mi apart in a straight line across open country: a US highway the network lacks is counted there at 1.15x/,
    );
    expect(viaOklahomaCity.confidence.reasons.join("; ")).toMatch(/road miles bounded/);
  });

  test("a long way round through mountains is the real road and stays on the network (Denver-Salt Lake City by Cheyenne)", () => {
    const byI80 = lookup({
      origin: "Denver, CO",
      destination: "Salt Lake City, UT",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    expect(byI80.distance_method).toBe("ROAD_NETWORK");
    expect(byI80.distance.bound_reason).toBeUndefined();
    expect(byI80.miles / greatCircleMiles(byI80.origin, byI80.destination)).toBeGreaterThan(1.3);
  });

  test("miles overrides the estimate", async () => {
    const { answer } = lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", miles: 967 });
    expect(answer).toMatchObject({ miles: 967, distance_method: "CALLER_PROVIDED" });
    expect(answer.total_cost).toBeCloseTo(answer.rate_per_mile * 967, 0);
  });
});

describe("the answer", () => {
  const asOf = "2025-06-30";
  const { answer, factorVersions, modelVersion } = lookup({
    origin: "Chicago, IL",
    destination: "Dallas, TX",
    equipment: "DRY_VAN",
    as_of: asOf,
  });

  test("has the contract's fields and the product's additions", async () => {
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

  test("diesel is the average of the origin's and destination's PADD prices for the week", async () => {
    const midwest = data.view(asOf, LOADED_AT).latest("EMD_EPD2D_PTE_R20_DPG")!;
    const gulf = data.view(asOf, LOADED_AT).latest("EMD_EPD2D_PTE_R30_DPG")!;
    expect(midwest.observedOn).toBe("2025-06-30"); // an EIA survey Monday
    expect(answer.data_sources.diesel_price).toBeCloseTo((midwest.value + gulf.value) / 2, 4);
    expect(answer.data_sources.diesel_source).toContain("EMD_EPD2D_PTE_R20_DPG");
    expect(answer.data_sources.labor_rate).toBe(28.75); // Illinois OEWS May 2024 hourly median
    expect(factorVersions.map((f) => f.series_id)).toEqual([
      "EMD_EPD2D_PTE_R20_DPG",
      "EMD_EPD2D_PTE_R30_DPG",
      "OEUS170000000000053303208",
      "PCU336120336120",
    ]);
    expect(factorVersions.every((f) => f.import_id === snapshotImportId() && f.observation_date <= asOf)).toBe(true);
  });

  test("the breakdown adds up to the rate, the per-load cost spread over the miles", async () => {
    const sum = Object.values(answer.breakdown).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(answer.rate_per_mile, 2);
    expect(answer.breakdown.reefer_fuel).toBe(0);
    expect(answer.breakdown.fuel_surcharge).toBe(0);
    const { dwell, empty_miles, overhead, total } = answer.per_load_cost;
    expect(dwell).toBeGreaterThan(0);
    expect(empty_miles).toBeGreaterThan(0);
    expect(overhead).toBe(RATE_MODEL.perLoad.value.overheadPerLoad);
    expect(dwell + empty_miles + overhead).toBeCloseTo(total, 1);
    expect(answer.breakdown.per_load).toBeCloseTo((total * answer.multipliers.equipment) / answer.miles, 3);
  });

  test("equipment cost is ATRI's newest published edition carried forward by the heavy-truck PPI, and says so", async () => {
    expect(answer.data_sources.equipment_source).toMatch(
      /ATRI .* 2024 edition \(2023 data, published 2024-06-01\).* carried forward x\d\.\d{4} by the BLS heavy-truck manufacturing PPI/,
    );
  });

  test("the same input and view give the same answer", async () => {
    expect(
      lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: asOf }).answer,
    ).toEqual(answer);
  });
});

describe("equipment, mode and surcharge", () => {
  const base = { origin: "Chicago, IL", destination: "Dallas, TX", as_of: "2025-06-30", miles: 950 } as const;
  const van = lookup({ ...base, equipment: "DRY_VAN" }).answer;

  test("reefer adds unit fuel and the 1.18 multiplier; flatbed burns more fuel", async () => {
    const reefer = lookup({ ...base, equipment: "REEFER" }).answer;
    const flatbed = lookup({ ...base, equipment: "FLATBED" }).answer;
    expect(reefer.breakdown.reefer_fuel).toBeGreaterThan(0.03);
    expect(reefer.multipliers.equipment).toBe(1.18);
    expect(reefer.factor_versions.map((f) => f.series_id)).toContain("FHWA_MF121T_DIESEL_IL");
    expect(flatbed.breakdown.fuel / 1.12).toBeGreaterThan(van.breakdown.fuel);
    expect(reefer.rate_per_mile).toBeGreaterThan(flatbed.rate_per_mile);
  });

  test("mode multipliers", async () => {
    const ltl = lookup({ ...base, equipment: "DRY_VAN", mode: "LTL" }).answer;
    const intermodal = lookup({ ...base, equipment: "DRY_VAN", mode: "INTERMODAL" }).answer;
    // Lane balance is a truckload factor: LTL and intermodal answers carry factor 1.
    const vanBeforeBalance = van.rate_per_mile / van.lane_balance.factor;
    expect(ltl.lane_balance.factor).toBe(1);
    expect(intermodal.lane_balance.factor).toBe(1);
    expect(ltl.rate_per_mile).toBeCloseTo(vanBeforeBalance * 1.35, 2);
    expect(intermodal.rate_per_mile).toBeCloseTo(vanBeforeBalance * 0.82, 2);
  });

  test("fuel is counted once: linehaul fuel at the surcharge base, the surcharge carries the rest, unmultiplied", async () => {
    const reefer = lookup({ ...base, equipment: "REEFER" }).answer;
    const withFsc = lookup({ ...base, equipment: "REEFER", include_fuel_surcharge: true }).answer;
    const mpg = RATE_MODEL.fuelEconomyMpg.value.REEFER;
    const originDiesel = withFsc.factor_versions[0]!.value; // the origin's EIA area comes first
    expect(withFsc.breakdown.fuel).toBeCloseTo((1.25 / mpg) * 1.18, 3);
    expect(withFsc.breakdown.fuel_surcharge).toBeCloseTo((originDiesel - 1.25) / mpg, 3);
    // Only the fuel line, the lane balance on it and the surcharge differ from the answer without it.
    const { fuel, fuel_surcharge, lane_balance, ...rest } = withFsc.breakdown;
    const { fuel: fullFuel, fuel_surcharge: none, lane_balance: fullBalance, ...restWithout } = reefer.breakdown;
    expect(rest).toEqual(restWithout);
    expect(none).toBe(0);
    expect(fuel).toBeLessThan(fullFuel);
    const factor = withFsc.lane_balance.factor;
    expect(lane_balance - fullBalance).toBeCloseTo((fuel - fullFuel) * (factor - 1), 3);
    expect(withFsc.rate_per_mile).toBeCloseTo(reefer.rate_per_mile + (fuel - fullFuel) * factor + fuel_surcharge, 2);
    expect(withFsc.data_sources.fuel_surcharge_source).toContain("linehaul fuel priced at the base");
  });

  test("rate-lookup's surcharge is the fuel-surcharge skill's for the same origin, equipment and week", async () => {
    const withFsc = lookup({ ...base, equipment: "DRY_VAN", include_fuel_surcharge: true }).answer;
    const skill = fuelSurchargeSkill.handler(
      { origin: base.origin, equipment: "DRY_VAN", as_of: base.as_of },
      skillContext(data, data.view(base.as_of, LOADED_AT)),
    ).answer;
    expect(withFsc.breakdown.fuel_surcharge).toBeCloseTo(skill.surcharge_per_mile, 4);
  });
});

describe("lane balance (head-haul / back-haul)", () => {
  const asOf = "2026-07-14";
  const priced = (origin: string, destination: string, mode?: "FTL" | "LTL") =>
    lookup({ origin, destination, equipment: "REEFER", as_of: asOf, ...(mode && { mode }) }).answer;

  test("a load into a market that ships little back costs more than the same road the other way", () => {
    const intoSeattle = priced("Los Angeles, CA", "Seattle, WA");
    const outOfSeattle = priced("Seattle, WA", "Los Angeles, CA");
    const { outbound, inbound } = RATE_MODEL.laneBalance.value;
    expect(intoSeattle.lane_balance).toEqual({
      origin_market: "CALIFORNIA",
      destination_market: "PACIFIC_NORTHWEST",
      outbound: outbound.CALIFORNIA!,
      inbound: inbound.PACIFIC_NORTHWEST!,
      factor: Number((outbound.CALIFORNIA! * inbound.PACIFIC_NORTHWEST!).toFixed(4)),
    });
    expect(outOfSeattle.lane_balance.factor).toBeCloseTo(outbound.PACIFIC_NORTHWEST! * inbound.CALIFORNIA!, 4);
    expect(intoSeattle.lane_balance.factor).toBeGreaterThan(1);
    expect(outOfSeattle.lane_balance.factor).toBeLessThan(1);
    expect(intoSeattle.rate_per_mile).toBeGreaterThan(outOfSeattle.rate_per_mile);
  });

  test("the breakdown shows what the factor adds, on the linehaul and per-load cost but never the surcharge", () => {
    const answer = lookup({
      origin: "Los Angeles, CA",
      destination: "Seattle, WA",
      equipment: "REEFER",
      as_of: asOf,
      include_fuel_surcharge: true,
    }).answer;
    const { lane_balance, fuel_surcharge, ...linehaul } = answer.breakdown;
    const beforeBalance = Object.values(linehaul).reduce((a, b) => a + b, 0);
    expect(lane_balance).toBeCloseTo(beforeBalance * (answer.lane_balance.factor - 1), 3);
    expect(fuel_surcharge).toBeGreaterThan(0);
    expect(beforeBalance + lane_balance + fuel_surcharge).toBeCloseTo(answer.rate_per_mile, 2);
  });

  test("a market without a fitted figure and an LTL load are balanced (factor 1, nothing added)", () => {
    const unfitted = priced("Omaha, NE", "Kansas City, MO");
    expect(unfitted.lane_balance).toEqual({
      origin_market: null,
      destination_market: null,
      outbound: 1,
      inbound: 1,
      factor: 1,
    });
    expect(unfitted.breakdown.lane_balance).toBe(0);
    const ltl = priced("Los Angeles, CA", "Seattle, WA", "LTL");
    expect(ltl.lane_balance.origin_market).toBe("CALIFORNIA");
    expect(ltl.lane_balance.factor).toBe(1);
    expect(ltl.breakdown.lane_balance).toBe(0);
  });
});

describe("diesel fallback and confidence", () => {
  test("current regional data, exact places, interstate lane: HIGH", async () => {
    const { answer } = lookup({
      origin: "Chicago, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    });
    expect(answer.confidence.level).toBe("HIGH");
  });

  test("a diesel price weeks behind its weekly release costs confidence per missed release, said in words", async () => {
    const current = lookup({
      origin: "Chicago, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    });
    const later = lookup({
      origin: "Chicago, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
      as_of: "2026-11-23",
    });
    expect(current.answer.confidence.reasons.join("; ")).not.toMatch(/diesel price.*behind/);
    expect(later.answer.confidence.reasons.join("; ")).toMatch(
      /diesel price for .+ \(2026-\d\d-\d\d\) is \d+ weekly releases behind: the next was due 2026-\d\d-\d\d \(-0\.\d+\)/,
    );
    expect(later.answer.confidence.score).toBeLessThan(current.answer.confidence.score);
  });

  test("when the regional series lags the national one, the U.S. price is used and confidence drops", async () => {
    // Regional weeks end 2026-09-21; the national series runs to 2026-10-05.
    const { answer, factorVersions } = lookup({
      origin: "Chicago, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
      as_of: "2026-10-06",
    });
    expect(factorVersions[0]).toMatchObject({ series_id: "EMD_EPD2D_PTE_NUS_DPG", observation_date: "2026-10-05" });
    expect(answer.confidence.reasons.join(" ")).toContain("no current regional diesel price");
  });

  test("a misspelt place and a short lane lower the score", async () => {
    const exact = lookup({
      origin: "Chicago, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    const fuzzy = lookup({
      origin: "Chicgo, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    const short = lookup({
      origin: "Dallas, TX",
      destination: "Fort Worth, TX",
      equipment: "DRY_VAN",
      as_of: "2026-09-22",
    }).answer;
    expect(fuzzy.origin.resolution).toBe("fuzzy");
    expect(fuzzy.confidence.score).toBeLessThan(exact.confidence.score);
    expect(short.confidence.score).toBeLessThan(exact.confidence.score);
  });

  test("a USDA AMS rate for the origin's shipping district and the destination city anchors the answer when it agrees", async () => {
    const { db: amsDb, data: amsData } = await snapshotReferenceData();
    const importedAt = LOADED_AT + 1000;
    const district = "SOUTH AND CENTRAL DISTRICT CALIFORNIA";
    const input = {
      origin: "Fresno, CA",
      destination: "Chicago, IL",
      equipment: "REEFER",
      as_of: "2026-07-28",
    } as const;
    const costPerLoad = rateLookupSkill.handler(input, skillContext(amsData, amsData.view(input.as_of, LOADED_AT)))
      .answer.total_cost;
    const week = (date: string, mid: number) => [
      { seriesId: amsFvwtrkSeries("LOW", district, "Chicago"), observedOn: date, value: Math.round(mid - 100) },
      { seriesId: amsFvwtrkSeries("HIGH", district, "Chicago"), observedOn: date, value: Math.round(mid + 100) },
    ];
    await appendObservations(
      amsDb,
      { importId: "imp_test_ams", source: "ams", fileName: "test", fileSha256: "0" },
      [
        ...week("2026-07-28", costPerLoad * 1.05),
        ...week("2026-06-30", costPerLoad * 1.6),
        // A misprinted week (low under half the high, stored before the importer refused such lines).
        {
          seriesId: amsFvwtrkSeries("LOW", district, "Chicago"),
          observedOn: "2026-08-04",
          value: Math.round(costPerLoad * 0.3),
        },
        {
          seriesId: amsFvwtrkSeries("HIGH", district, "Chicago"),
          observedOn: "2026-08-04",
          value: Math.round(costPerLoad * 1.05),
        },
      ],
      importedAt,
    );
    amsData.reload();
    const at = (as_of: string, origin: string = input.origin, equipment: "REEFER" | "DRY_VAN" = "REEFER") =>
      rateLookupSkill.handler(
        { ...input, as_of, origin, equipment },
        skillContext(amsData, amsData.view(as_of, importedAt)),
      ).answer;

    const anchored = at("2026-07-28");
    expect(anchored.confidence.level).toBe("AMS_ANCHORED");
    expect(anchored.market_anchor).toMatchObject({
      district,
      destination: "Chicago",
      observation_date: "2026-07-28",
      agrees: true,
    });
    expect(anchored.market_anchor!.spread).toBeCloseTo(-0.05, 2);
    expect(anchored.factor_versions.map((f) => f.series_id)).toContain(amsFvwtrkSeries("HIGH", district, "Chicago"));
    // A market 60 % above the cost basis is reported, not vouched for.
    const apart = at("2026-07-02");
    expect(apart.confidence.level).not.toBe("AMS_ANCHORED");
    expect(apart.market_anchor).toMatchObject({ agrees: false, observation_date: "2026-06-30" });
    expect(apart.confidence.reasons.join(" ")).toContain("outside the 15% band");
    // Not for dry vans, not from outside the district, not with a report older than four weeks.
    expect(at("2026-07-28", input.origin, "DRY_VAN").market_anchor).toBeUndefined();
    expect(at("2026-07-28", "Sacramento, CA").market_anchor).toBeUndefined();
    expect(at("2026-08-26").market_anchor).toBeUndefined();
    // A range no report prints is not a market figure: the misprinted week anchors nothing.
    expect(at("2026-08-03").market_anchor?.observation_date).toBe("2026-07-28");
    expect(at("2026-08-04").market_anchor).toBeUndefined();
  });
});

test("with the snapshot's USDA weeks, anchors follow the shipping district, not the origin's state", async () => {
  const at = (origin: string, destination: string) =>
    lookup({ origin, destination, equipment: "REEFER", as_of: "2026-07-28" }).answer.market_anchor?.district;
  expect(at("Yakima, WA", "Seattle, WA")).toBe("YAKIMA VALLEY AND WENATCHEE DISTRICT WASHINGTON");
  expect(at("Spokane, WA", "Seattle, WA")).toBeUndefined(); // same state, 190 mi from the district
  expect(at("McAllen, TX", "Chicago, IL")).toBe("MEXICO CROSSINGS THROUGH SOUTH TEXAS");
  expect(at("Houston, TX", "Chicago, IL")).toBeUndefined();
  expect(at("Fresno, CA", "Chicago, IL")).toBe("SOUTH AND CENTRAL DISTRICT CALIFORNIA");
  expect(at("Fresno, CA", "Denver, CO")).toBeUndefined(); // a destination the report does not price
});

test("a USDA report anchors a lane for four weeks after its date and not a day more", () => {
  const anchor = (as_of: string) =>
    lookup({ origin: "Yakima, WA", destination: "Seattle, WA", equipment: "REEFER", as_of }).answer.market_anchor;
  expect(anchor("2026-08-25")?.observation_date).toBe("2026-07-28");
  expect(anchor("2026-08-26")).toBeUndefined();
});

describe("refusals", () => {
  const base = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" } as const;

  test("unresolvable place: 422 with suggestions", async () => {
    const error = refusal({ ...base, destination: "Dalas, TZ" });
    expect(error.status).toBe(422);
    expect(error.body("req")).toMatchObject({ error: "UNRESOLVED_LOCATION", field: "destination", input: "Dalas, TZ" });
    expect((error.body("req").suggestions as string[]).length).toBeGreaterThan(0);
  });

  test.each([
    [{ ...base, destination: "chicago il" }, "destination", /same place as origin/],
    [{ ...base, miles: 0 }, "miles", /at least 723/],
    [{ ...base, miles: -5 }, "miles", /at least 723/],
    [{ ...base, miles: 0.001 }, "miles", /at least 723/],
    [{ ...base, origin: "New York, NY", destination: "Jersey City, NJ", miles: 1 }, "miles", /at least 5 /],
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

  test("a lane no truck can drive: 422 NOT_ROAD_CONNECTED", async () => {
    for (const [field, text] of [
      ["origin", "Honolulu, HI"],
      ["destination", "San Juan, PR"],
      ["destination", "Anchorage, AK"],
    ] as const) {
      const error = refusal({ ...base, [field]: text });
      expect(error.status).toBe(422);
      expect(error.body("req")).toMatchObject({ error: "NOT_ROAD_CONNECTED", field, input: text });
    }
  });

  test("a bare name shared by comparable places: 422 AMBIGUOUS_LOCATION with candidates and their states", async () => {
    const error = refusal({ ...base, origin: "Portland" });
    expect(error.status).toBe(422);
    expect(error.body("req")).toMatchObject({
      error: "AMBIGUOUS_LOCATION",
      field: "origin",
      candidates: ["Portland, OR", "Portland, ME"],
    });
  });

  test("a refused call writes nothing", async () => {
    const before = db.$client.prepare("SELECT count(*) AS n FROM observations").get();
    refusal({ ...base, miles: -1 });
    expect(db.$client.prepare("SELECT count(*) AS n FROM observations").get()).toEqual(before);
  });
});
