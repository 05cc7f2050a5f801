import { describe, expect, test } from "bun:test";
import { ApiError } from "../../../src/errors.ts";
import { rateLookupSkill } from "../../../src/skills/rate-lookup/skill.ts";
import { RATE_MODEL } from "../../../src/skills/rate-lookup/constants.ts";
import type { Equipment } from "../../../src/skills/kit.ts";
import { appendObservations } from "../../../src/reference/storage/append.ts";
import { greatCircleMiles } from "../../../src/reference/geo/distance.ts";
import { embeddedRoadNetwork } from "../../../src/reference/roads/index.ts";
import { ROAD_RULES } from "../../../src/reference/roads/road-miles.ts";
import { amsFvwtrkSeries } from "../../../src/reference/series/series-ids.ts";
import { fuelSurchargeSkill } from "../../../src/skills/fuel-surcharge/skill.ts";
import { LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";
import { skillContext } from "../../support/skill-call.ts";
import { defined } from "../../support/defined.ts";
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
    expect(defined(answer.distance.connector_miles, "the connector miles").origin).toBeGreaterThanOrEqual(0);
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
    const midwest = defined(data.view(asOf, LOADED_AT).latest("EMD_EPD2D_PTE_R20_DPG"), "the PADD 2 diesel price");
    const gulf = defined(data.view(asOf, LOADED_AT).latest("EMD_EPD2D_PTE_R30_DPG"), "the PADD 3 diesel price");
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

  test("the breakdown adds up to the rate; stops and empty miles are priced by the load's hours and miles", async () => {
    const sum = Object.values(answer.breakdown).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(answer.rate_per_mile, 2);
    expect(answer.breakdown.reefer_fuel).toBe(0);
    expect(answer.breakdown.fuel_surcharge).toBe(0);
    expect(answer.breakdown.lane_balance).toBe(0);
    const { load, breakdown, miles } = answer;
    expect(load.driven_miles).toBeCloseTo(miles + load.empty_miles, 0);
    expect(load.stop_hours).toBe(RATE_MODEL.load.value.stopHours);
    expect(breakdown.stops * miles).toBeCloseTo(load.cost_per_hour * load.stop_hours, 0);
    expect(breakdown.empty_miles).toBeGreaterThan(0);
  });

  test("a short haul costs more per mile than a long one, but its day, not a flat add-on, is what it costs", async () => {
    const at = (miles: number) =>
      lookup({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN", as_of: asOf, miles }).answer;
    const long = at(1500);
    const longer = at(2500);
    expect(longer.rate_per_mile).toBeLessThan(long.rate_per_mile);
    // Past the minimum deadhead every line runs with the miles but the stops, whose hours cost the same on any load.
    expect(longer.rate_per_mile - longer.breakdown.stops).toBeCloseTo(long.rate_per_mile - long.breakdown.stops, 2);
    expect(longer.breakdown.stops * longer.miles).toBeCloseTo(long.breakdown.stops * long.miles, 0);
    expect(long.load.cost_per_hour).toBe(longer.load.cost_per_hour);
    // Below it, the deadhead to the pickup is a floor: a 100-mile load still runs its minimum empty miles.
    expect(at(723).load.empty_miles).toBeGreaterThanOrEqual(RATE_MODEL.load.value.minEmptyMilesPerLoad);
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

  test("reefer adds unit fuel and its multiplier on the non-fuel lines; flatbed burns more fuel", async () => {
    const reefer = lookup({ ...base, equipment: "REEFER" }).answer;
    const flatbed = lookup({ ...base, equipment: "FLATBED" }).answer;
    const { REEFER, FLATBED } = RATE_MODEL.equipmentMultiplier.value;
    expect(reefer.breakdown.reefer_fuel).toBeGreaterThan(0.03);
    expect(reefer.multipliers.equipment).toBe(REEFER);
    expect(reefer.factor_versions.map((f) => f.series_id)).toContain("FHWA_MF121T_DIESEL_IL");
    expect(reefer.breakdown.labor).toBeCloseTo(van.breakdown.labor * REEFER, 3);
    expect(flatbed.breakdown.equipment).toBeCloseTo(van.breakdown.equipment * FLATBED, 3);
    const mpg = RATE_MODEL.fuelEconomyMpg.value;
    // Fuel is never multiplied: it differs by fuel economy alone.
    expect(flatbed.breakdown.fuel).toBeCloseTo((van.breakdown.fuel * mpg.DRY_VAN) / mpg.FLATBED, 3);
    expect(reefer.breakdown.margin).toBe(van.breakdown.margin);
  });

  test("mode multipliers scale the non-fuel lines, never fuel or margin", async () => {
    const ltl = lookup({ ...base, equipment: "DRY_VAN", mode: "LTL" }).answer;
    const intermodal = lookup({ ...base, equipment: "DRY_VAN", mode: "INTERMODAL" }).answer;
    const nonFuel = (a: typeof van) =>
      a.breakdown.labor + a.breakdown.equipment + a.breakdown.stops + a.breakdown.empty_miles;
    for (const [answer, multiplier] of [
      [ltl, RATE_MODEL.modeMultiplier.value.LTL],
      [intermodal, RATE_MODEL.modeMultiplier.value.INTERMODAL],
    ] as const) {
      expect(answer.lane_balance.factor).toBe(1);
      expect(answer.breakdown.fuel).toBe(van.breakdown.fuel);
      expect(nonFuel(answer)).toBeCloseTo(nonFuel(van) * multiplier, 3);
      expect(answer.rate_per_mile).toBeCloseTo(van.rate_per_mile + nonFuel(van) * (multiplier - 1), 2);
    }
  });

  test.each(["DRY_VAN", "REEFER", "FLATBED"] as const)(
    "%s: the surcharge is split out of the fuel line and the total does not move",
    (equipment) => {
      for (const lane of [base, { origin: "Fresno, CA", destination: "Atlanta, GA", as_of: "2026-07-14" }]) {
        const without = lookup({ ...lane, equipment }).answer;
        const withFsc = lookup({ ...lane, equipment, include_fuel_surcharge: true }).answer;
        expect(withFsc.total_cost).toBe(without.total_cost);
        expect(withFsc.rate_per_mile).toBe(without.rate_per_mile);
        expect(withFsc.breakdown.fuel_surcharge).toBeGreaterThan(0);
        expect(withFsc.breakdown.fuel + withFsc.breakdown.fuel_surcharge).toBeCloseTo(without.breakdown.fuel, 3);
        const { fuel, fuel_surcharge, ...rest } = withFsc.breakdown;
        const { fuel: _fuel, fuel_surcharge: none, ...restWithout } = without.breakdown;
        expect(rest).toEqual(restWithout);
        expect(none).toBe(0);
        expect(withFsc.data_sources.fuel_surcharge_source).toContain("split out of the fuel line");
      }
    },
  );

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
  const priced = (origin: string, destination: string, equipment: Equipment = "REEFER", mode?: "FTL" | "LTL") =>
    lookup({ origin, destination, equipment, as_of: asOf, ...(mode && { mode }) }).answer;
  const perMileWithoutFuel = (a: ReturnType<typeof priced>) =>
    a.rate_per_mile - a.breakdown.fuel - a.breakdown.reefer_fuel;

  test.each(["DRY_VAN", "FLATBED"] as const)(
    "%s carries no lane balance: a lane and its reverse cost the same",
    (equipment) => {
      // One state, one diesel area and one wage at both ends, in a market the reefer factor is fitted for.
      const lane = (origin: string, destination: string) =>
        lookup({ origin, destination, equipment, as_of: asOf, miles: 240 }).answer;
      const there = lane("Dallas, TX", "Houston, TX");
      const back = lane("Houston, TX", "Dallas, TX");
      for (const answer of [there, back]) {
        expect(answer.lane_balance).toMatchObject({ origin_market: "TEXAS", destination_market: "TEXAS", factor: 1 });
        expect(answer.breakdown.lane_balance).toBe(0);
      }
      expect(there.rate_per_mile).toBe(back.rate_per_mile);
      expect(there.breakdown).toEqual(back.breakdown);
    },
  );

  test("a reefer load from a USDA shipping district carries the fitted factor on its non-fuel lines and margin", () => {
    const answer = lookup({
      origin: "Fresno, CA",
      destination: "Seattle, WA",
      equipment: "REEFER",
      as_of: asOf,
      include_fuel_surcharge: true,
    }).answer;
    const { level, outbound, inbound } = RATE_MODEL.laneBalance.value;
    const district = "SOUTH AND CENTRAL DISTRICT CALIFORNIA";
    const fresnoOutbound = defined(outbound[district], "Fresno's district outbound factor");
    const northwestInbound = defined(inbound.PACIFIC_NORTHWEST, "the Pacific Northwest's inbound factor");
    expect(answer.lane_balance).toEqual({
      origin_district: district,
      origin_market: "CALIFORNIA",
      destination_market: "PACIFIC_NORTHWEST",
      level,
      outbound: fresnoOutbound,
      inbound: northwestInbound,
      factor: Number((level * fresnoOutbound * northwestInbound).toFixed(4)),
    });
    const { lane_balance, fuel, reefer_fuel, fuel_surcharge, ...balanced } = answer.breakdown;
    const beforeBalance = Object.values(balanced).reduce((a, b) => a + b, 0);
    expect(lane_balance).toBeCloseTo(beforeBalance * (answer.lane_balance.factor - 1), 3);
    expect(fuel_surcharge).toBeGreaterThan(0);
    expect(perMileWithoutFuel(answer) - fuel_surcharge).toBeCloseTo(beforeBalance + lane_balance, 2);
  });

  test("a reefer load from outside the produce districts, and an LTL load, are balanced (factor 1)", () => {
    const national = priced("Chicago, IL", "Dallas, TX");
    expect(national.lane_balance).toMatchObject({ origin_district: null, level: 1, factor: 1 });
    expect(national.breakdown.lane_balance).toBe(0);
    const ltl = priced("Fresno, CA", "Seattle, WA", "REEFER", "LTL");
    expect(ltl.lane_balance).toMatchObject({ origin_market: "CALIFORNIA", level: 1, factor: 1 });
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
    expect(defined(anchored.market_anchor, "the market anchor").spread).toBeCloseTo(-0.05, 2);
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

test("a USDA report anchors a lane for two weeks after its date and not a day more", () => {
  const anchor = (as_of: string) =>
    lookup({ origin: "Yakima, WA", destination: "Seattle, WA", equipment: "REEFER", as_of }).answer.market_anchor;
  expect(anchor("2026-08-11")?.observation_date).toBe("2026-07-28");
  expect(anchor("2026-08-12")).toBeUndefined();
});

describe("refusals", () => {
  const base = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" } as const;

  test("an unknown state: 422 that says so, with no far-fetched suggestions", async () => {
    const error = refusal({ ...base, destination: "Nowhere, ZZ" });
    expect(error.body("req")).toMatchObject({ error: "UNRESOLVED_LOCATION", field: "destination", suggestions: [] });
    expect(error.message).toBe("Could not find a US place for destination 'Nowhere, ZZ': 'ZZ' is not a US state code.");
  });

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
    const first = defined(details[0], "the first refused field");
    expect(first.field).toBe(field);
    expect(first.problem).toMatch(problem);
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
