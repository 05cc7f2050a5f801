/**
 * `npm run fidelity`: the rate model against the project's own reference sets (docs/rate-model.md, "Fidelity").
 *   1. road miles of well-known lanes (road-lanes.ts), tuning and held-out lanes apart, and query time;
 *   2. total cost per mile as of mid-year 2019-2024 against ATRI's total for that year (atri-years.ts);
 *   3. REEFER cost basis (no surcharge) against USDA AMS FVWTRK $/load ranges in the snapshot, fit and held-out weeks,
 *      and the levers tried on the held-out weeks: a market-level index (usda-market-level.ts), band, district, lane.
 * Prints Markdown tables; with --readme, also writes them between the fidelity markers in README.md; with --fit, prints
 * the lane-balance factors the fit weeks give (fit-lane-balance.ts) and nothing else; lanes of a sealed set (road-lanes.ts)
 * are left out until --unseal.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { DAY_MS } from "../../../src/dates.ts";
import { openMemoryDatabase } from "../../../src/db/client.ts";
import { AMS_DISTRICTS } from "../../../src/reference/geo/ams-districts.ts";
import { greatCircleMiles } from "../../../src/reference/geo/distance.ts";
import { createReferenceData } from "../../../src/reference/index.ts";
import { resolvePlace, type ResolvedPlace } from "../../../src/reference/geo/places.ts";
import { embeddedRoadNetwork, roadMiles } from "../../../src/reference/roads/index.ts";
import { amsFvwtrkSeries, NATIONAL_TRUCK_DRIVER_WAGE_SERIES } from "../../../src/reference/series/series-ids.ts";
import { circuityFactor, RATE_MODEL, type FreightMarket } from "../../../src/skills/rate-lookup/constants.ts";
import { driverWageAsOf } from "../../../src/skills/rate-lookup/driver-wage.ts";
import { equipmentCostAsOf } from "../../../src/skills/rate-lookup/equipment-cost.ts";
import { costBasis } from "../../../src/skills/rate-lookup/model.ts";
import { costAtDiesel, priceLane } from "../../../src/skills/rate-lookup/price-lane.ts";
import { ATRI_SOURCE, ATRI_TOTAL_PER_MILE } from "./atri-years.ts";
import { type FittedLaneBalance, fitLaneBalance, median as middle } from "./fit-lane-balance.ts";
import { REFERENCE_LANES, ROAD_MILES_SOURCE, SEALED_SETS } from "./road-lanes.ts";
import { distanceBand, heldOutErrorAnalysis, pct, quantile } from "./usda-errors.ts";
import { marketLevelBefore, type ReportLane, reeferRateIndex } from "./usda-market-level.ts";
import { DESTINATION_PLACES, DISTRICT_TOWNS, FIT_WEEKS, HELD_OUT_WEEKS } from "./usda-weeks.ts";

const KNOWN_AT = Date.parse("2026-11-22T12:00:00Z");
const data = createReferenceData(openMemoryDatabase());
await data.loadSnapshot(KNOWN_AT);

const median = (values: number[]) => quantile(values, 0.5);
const place = (text: string): ResolvedPlace => {
  const result = resolvePlace(text);
  if (!result.ok) throw new Error(`reference place ${text} does not resolve`);
  return result.place;
};

function errorRow(label: string, errors: number[]): string {
  const abs = errors.map(Math.abs);
  const within5 = abs.filter((e) => e <= 0.05).length;
  return `| ${label} | ${errors.length} | ${pct(median(abs)).slice(1)} | ${within5} (${Math.round((within5 / errors.length) * 100)} %) | ${pct(Math.max(...abs)).slice(1)} |`;
}

/** Whether a lane's published route uses a road other than an Interstate (its notes in brackets aside). */
const leavesInterstates = (route: string) =>
  route.split(",").some((road) => !/^I-\d/.test(road.replace(/\(.*?\)/g, "").trim()));

function roadSection(): string[] {
  const network = embeddedRoadNetwork();
  const unseal = process.argv.includes("--unseal");
  const lanes = REFERENCE_LANES.filter((lane) => unseal || !SEALED_SETS.has(lane.set));
  const sealed = REFERENCE_LANES.length - lanes.length;
  const bySet: Record<string, { road: number[]; crow: number[] }> = {
    tuning: { road: [], crow: [] },
    holdout: { road: [], crow: [] },
    holdout2: { road: [], crow: [] },
    holdout3: { road: [], crow: [] },
    holdout4: { road: [], crow: [] },
    holdout5: { road: [], crow: [] },
    unseen: { road: [], crow: [] },
    holdout6: { road: [], crow: [] },
    holdout7: { road: [], crow: [] },
    holdout8: { road: [], crow: [] },
  };
  const byRoute: Record<"interstate" | "leaves", number[]> = { interstate: [], leaves: [] };
  const worst: string[] = [];
  const notPlain: Record<"ROAD_NETWORK_BOUNDED" | "OFF_NETWORK", string[]> = {
    ROAD_NETWORK_BOUNDED: [],
    OFF_NETWORK: [],
  };
  for (const lane of lanes) {
    const origin = place(lane.origin);
    const destination = place(lane.destination);
    const crow = greatCircleMiles(origin, destination);
    const road = roadMiles(network, origin, destination);
    const miles =
      road.method === "OFF_NETWORK" && road.cause === "FAR_FROM_NETWORK" ? crow * circuityFactor(crow) : road.miles;
    const error = (miles - lane.roadMiles) / lane.roadMiles;
    bySet[lane.set]!.road.push(error);
    byRoute[leavesInterstates(lane.route) ? "leaves" : "interstate"].push(error);
    bySet[lane.set]!.crow.push((crow * circuityFactor(crow) - lane.roadMiles) / lane.roadMiles);
    const method = road.method === "ROAD_NETWORK" && road.missingRoad ? "ROAD_NETWORK_BOUNDED" : road.method;
    if (method !== "ROAD_NETWORK") notPlain[method].push(`${lane.origin} - ${lane.destination} ${pct(error)}`);
    if (Math.abs(error) > 0.05)
      worst.push(
        `${lane.origin} - ${lane.destination} (${lane.set}): ${Math.round(miles)} vs ${lane.roadMiles} (${pct(error)}, ${method})`,
      );
  }
  // Query time: every reference lane routed 20 times after a warm-up pass.
  const pairs = lanes.map((lane) => [place(lane.origin), place(lane.destination)] as const);
  for (const [a, b] of pairs) roadMiles(network, a, b);
  const times: number[] = [];
  const bestPerLane = pairs.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < 20; round++) {
    pairs.forEach(([a, b], lane) => {
      const started = performance.now();
      roadMiles(network, a, b);
      const took = performance.now() - started;
      times.push(took);
      bestPerLane[lane] = Math.min(bestPerLane[lane]!, took);
    });
  }
  return [
    `### Road miles (${network.version}; reference: ${ROAD_MILES_SOURCE})`,
    "",
    "| lanes | n | median abs error | within 5 % | worst |",
    "|---|---|---|---|---|",
    errorRow("road network, tuning lanes", bySet.tuning!.road),
    errorRow("road network, held-out lanes", bySet.holdout!.road),
    errorRow("road network, second held-out lanes", bySet.holdout2!.road),
    errorRow("road network, third held-out lanes", bySet.holdout3!.road),
    errorRow("road network, fourth held-out lanes", bySet.holdout4!.road),
    errorRow("road network, fifth held-out lanes", bySet.holdout5!.road),
    errorRow("road network, unseen lanes", bySet.unseen!.road),
    errorRow("road network, sixth held-out lanes (committed before roads-r4)", bySet.holdout6!.road),
    errorRow("road network, seventh held-out lanes (committed before roads-r5)", bySet.holdout7!.road),
    sealed
      ? `| eighth held-out lanes (committed before roads-r6) | ${sealed} | sealed | | |`
      : errorRow("road network, eighth held-out lanes (committed before roads-r6)", bySet.holdout8!.road),
    errorRow(
      "road network, all",
      Object.values(bySet).flatMap((set) => set.road),
    ),
    errorRow(
      "great-circle x 1.12 (old), all",
      Object.values(bySet).flatMap((set) => set.crow),
    ),
    errorRow("published route on Interstates all the way", byRoute.interstate),
    errorRow("published route leaves the Interstates (US or state highway, turnpike, parkway)", byRoute.leaves),
    "",
    `Query (snap both places + A*): median ${median(times).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms over ${times.length} routes; ` +
      `the slowest lane's best of 20 runs ${Math.max(...bestPerLane).toFixed(2)} ms (p99 counts time lost to other processes on a shared CPU).`,
    ...(worst.length ? ["", "Lanes beyond 5 %:", ...worst.map((w) => `- ${w}`)] : []),
    "",
    `Bounded round a road the network lacks (${notPlain.ROAD_NETWORK_BOUNDED.length}): ${notPlain.ROAD_NETWORK_BOUNDED.join("; ") || "none"}. ` +
      `Fell back to great-circle x circuity (${notPlain.OFF_NETWORK.length}): ${notPlain.OFF_NETWORK.join("; ") || "none"}.`,
  ];
}

function atriSection(): string[] {
  const rows: string[] = [];
  for (const [yearText, atriTotal] of Object.entries(ATRI_TOTAL_PER_MILE)) {
    const asOf = `${yearText}-07-01`;
    const view = data.view(asOf, KNOWN_AT);
    const diesel = view.latest("EMD_EPD2D_PTE_NUS_DPG");
    const wage = view.latest(NATIONAL_TRUCK_DRIVER_WAGE_SERIES);
    const equipment = equipmentCostAsOf(view);
    if (!diesel || !wage || !equipment) {
      rows.push(
        `| ${yearText} | ${atriTotal} | not answerable as of ${asOf} (no ${!diesel ? "diesel" : !wage ? "published wage" : "ATRI edition"}) | | | | |`,
      );
      continue;
    }
    const cost = costBasis({
      equipment: "DRY_VAN",
      mode: "FTL",
      miles: 500,
      dieselPerGallon: diesel.value,
      surchargeDieselPerGallon: diesel.value,
      offRoadDieselPerGallon: diesel.value,
      driverHourlyWage: driverWageAsOf(wage, asOf).hourly,
      equipmentPerMile: equipment.perMile,
      includeFuelSurcharge: false,
      laneBalanceFactor: 1,
    });
    const error = (cost.operatingCostPerMile - atriTotal) / atriTotal;
    const carry = driverWageAsOf(wage, asOf).carriedForward;
    rows.push(
      `| ${yearText} | ${atriTotal} | ${cost.operatingCostPerMile.toFixed(3)} | ${pct(error)} | ${diesel.value} (${diesel.observedOn}) | ${wage.value} (${wage.observedOn})${carry ? ` x${carry.ratio.toFixed(3)} ATRI driver ${carry.from.dataYear}-${carry.to.dataYear}` : ""} | ` +
        `${equipment.perMile.toFixed(3)} (ATRI ${equipment.edition.edition}${equipment.carriedForward ? ` x${equipment.carriedForward.ratio.toFixed(3)} PPI` : ""}) |`,
    );
  }
  return [
    `### Total cost per mile as of 1 July vs ATRI (${ATRI_SOURCE})`,
    "",
    "| year | ATRI | model | error | U.S. diesel | national wage | equipment |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ];
}

type UsdaLaneWeek = ReportLane;

interface PricedLaneWeek extends UsdaLaneWeek {
  miles: number;
  /** The model's answer, lane balance included. */
  cost: number;
  /** The same without the lane-balance factor (no surcharge is asked, so the factor scales the whole cost). */
  costWithoutBalance: number;
  /** The same with the lane's fuel at its origin's EIA diesel area instead of the mean of both ends. */
  costAtOriginDiesel: number;
  /** What the per-load empty miles add to the load, after the mode and equipment multipliers (no lane balance). */
  emptyMilesCost: number;
  originMarket: FreightMarket | null;
  destinationMarket: FreightMarket | null;
}

/** Every lane-week of the USDA reports the view sees (by default, all of them). */
function usdaLaneWeeks(view = data.view("2100-01-01", KNOWN_AT)): UsdaLaneWeek[] {
  const out: UsdaLaneWeek[] = [];
  for (const district of Object.keys(AMS_DISTRICTS)) {
    for (const destination of Object.keys(DESTINATION_PLACES)) {
      const lows = view.history(amsFvwtrkSeries("LOW", district, destination));
      const highs = new Map(
        view.history(amsFvwtrkSeries("HIGH", district, destination)).map((o) => [o.observedOn, o.value]),
      );
      for (const low of lows) {
        const high = highs.get(low.observedOn);
        if (high !== undefined) out.push({ week: low.observedOn, district, destination, low: low.value, high });
      }
    }
  }
  return out;
}

function priceLaneWeek(w: UsdaLaneWeek): PricedLaneWeek {
  const { answer, factors } = priceLane(
    { origin: DISTRICT_TOWNS[w.district]!, destination: DESTINATION_PLACES[w.destination]!, equipment: "REEFER" },
    data.view(w.week, KNOWN_AT),
  );
  const balance = answer.lane_balance;
  const atOriginDiesel = costAtDiesel(factors, factors.diesel[0]!.observation.value);
  return {
    ...w,
    miles: answer.miles,
    cost: answer.total_cost,
    costWithoutBalance: answer.total_cost / balance.factor,
    costAtOriginDiesel: (atOriginDiesel.ratePerMile * answer.miles) / balance.factor,
    emptyMilesCost: answer.per_load_cost.empty_miles * answer.multipliers.mode * answer.multipliers.equipment,
    originMarket: balance.origin_market as FreightMarket | null,
    destinationMarket: balance.destination_market as FreightMarket | null,
  };
}

const midpointOf = (w: UsdaLaneWeek) => (w.low + w.high) / 2;
const inRange = (w: UsdaLaneWeek, cost: number) => cost >= w.low && cost <= w.high;

function accuracyRow(
  label: string,
  lanes: PricedLaneWeek[],
  costOf: (w: PricedLaneWeek) => number | undefined,
  fitWeeks?: string,
): string {
  const scored = lanes.flatMap((w) => {
    const cost = costOf(w);
    return cost === undefined ? [] : [{ w, cost, error: (cost - midpointOf(w)) / midpointOf(w) }];
  });
  const errors = scored.map((s) => s.error);
  const inside = scored.filter((s) => inRange(s.w, s.cost)).length;
  const short = scored.filter((s) => s.w.miles < 500).map((s) => s.error);
  return (
    `| ${label} | ${fitWeeks === undefined ? "" : `${fitWeeks} | `}${errors.length} | ${Math.round((inside / errors.length) * 100)} % | ${pct(median(errors))} | ` +
    `${pct(quantile(errors, 0.1))} .. ${pct(quantile(errors, 0.9))} | ${short.length} | ${short.length ? pct(median(short)) : "-"} |`
  );
}

/**
 * A lever's row: the held-out weeks beside the share inside on the fit weeks under the same lever (in-sample for a
 * lever fitted on them), so a lever that lifts the held-out weeks but not the fit weeks shows it.
 */
function leverRow(
  label: string,
  fit: PricedLaneWeek[],
  heldOut: PricedLaneWeek[],
  costOf: (w: PricedLaneWeek) => number | undefined,
  note = "",
): string {
  const scored = fit.filter((w) => costOf(w) !== undefined);
  const fitWeeks =
    scored.length === 0
      ? "-"
      : `${shareInside(scored, costOf)} %${scored.length < fit.length ? ` of ${scored.length}` : ""}${note}`;
  return accuracyRow(label, heldOut, costOf, fitWeeks);
}

/** Percentage of the lane-weeks a pricing puts inside USDA's range, rounded. */
function shareInside(lanes: PricedLaneWeek[], costOf: (w: PricedLaneWeek) => number | undefined): number {
  return Math.round((lanes.filter((w) => inRange(w, costOf(w) ?? Number.NaN)).length / lanes.length) * 100);
}

/** |change| of each lane's midpoint between reports 7 days apart. */
function weeklyMoves(all: PricedLaneWeek[]): number[] {
  const byLane = new Map(all.map((w) => [`${w.district}|${w.destination}|${w.week}`, w]));
  return all.flatMap((w) => {
    const before = byLane.get(
      `${w.district}|${w.destination}|${new Date(Date.parse(w.week) - 7 * DAY_MS).toISOString().slice(0, 10)}`,
    );
    return before ? [Math.abs(midpointOf(w) / midpointOf(before) - 1)] : [];
  });
}

/** USDA's own midpoint for the same lane in the report before: what copying the market, not pricing it, would score. */
function previousWeekMidpoint(all: PricedLaneWeek[]): (w: PricedLaneWeek) => number | undefined {
  const weeks = [...new Set(all.map((w) => w.week))].sort();
  const byLane = new Map(all.map((w) => [`${w.district}|${w.destination}|${w.week}`, w]));
  return (w) => {
    const before = weeks[weeks.indexOf(w.week) - 1];
    const previous = before && byLane.get(`${w.district}|${w.destination}|${before}`);
    return previous ? midpointOf(previous) : undefined;
  };
}

/** How lane balance groups a lane-week: the shipped factor by freight market, or finer, by USDA's own districts and cities. */
interface Grouping {
  origin: (w: PricedLaneWeek) => string | null;
  destination: (w: PricedLaneWeek) => string | null;
}
const BY_MARKET: Grouping = { origin: (w) => w.originMarket, destination: (w) => w.destinationMarket };
const BY_DISTRICT_AND_CITY: Grouping = { origin: (w) => w.district, destination: (w) => w.destination };

/** A lane-week's cost before lane balance: the model's, or a variant of one of its parts. */
type UnbalancedCost = (w: PricedLaneWeek) => number;
const modelUnbalanced: UnbalancedCost = (w) => w.costWithoutBalance;

function fittedLaneBalance(
  lanes: PricedLaneWeek[],
  by: Grouping = BY_MARKET,
  costOf = modelUnbalanced,
): FittedLaneBalance {
  return fitLaneBalance(
    lanes.map((w) => ({
      week: w.week,
      origin: by.origin(w),
      destination: by.destination(w),
      logError: Math.log(midpointOf(w) / costOf(w)),
    })),
  );
}

/** The cost basis with a fitted lane balance in place of the shipped one (a group without a figure counts 1). */
function balancedBy(fitted: FittedLaneBalance, by: Grouping, costOf = modelUnbalanced): (w: PricedLaneWeek) => number {
  return (w) => {
    const origin = by.origin(w);
    const destination = by.destination(w);
    return costOf(w) * ((origin && fitted.outbound[origin]) || 1) * ((destination && fitted.inbound[destination]) || 1);
  };
}

/** A variant of one cost part, with the lane balance refitted on the fit weeks for it (as the shipped one was for the model). */
const variantWithRefittedBalance = (fit: PricedLaneWeek[], costOf: UnbalancedCost) =>
  balancedBy(fittedLaneBalance(fit, BY_MARKET, costOf), BY_MARKET, costOf);

/** Empty miles as a share of the loaded miles (ATRI's non-revenue miles) instead of a fixed distance per load. */
const emptyMilesAsShare =
  (share: number): UnbalancedCost =>
  (w) =>
    w.costWithoutBalance + w.emptyMilesCost * ((share * w.miles) / RATE_MODEL.perLoad.value.emptyMilesToPickup - 1);

/** The model with its level (the REEFER multiplier, in effect) refitted on the fit weeks: their median log error taken off. */
function levelRefitted(fit: PricedLaneWeek[]): (w: PricedLaneWeek) => number {
  const level = Math.exp(middle(fit.map((w) => Math.log(midpointOf(w) / w.cost))));
  return (w) => w.cost * level;
}

/** Share of the fit lane-weeks inside when each fit week is priced with lane balance fitted on the other two. */
function leaveOneFitWeekOut(fit: PricedLaneWeek[], by: Grouping): number {
  const inside = FIT_WEEKS.reduce((count, week) => {
    const price = balancedBy(
      fittedLaneBalance(
        fit.filter((w) => w.week !== week),
        by,
      ),
      by,
    );
    return count + fit.filter((w) => w.week === week && inRange(w, price(w))).length;
  }, 0);
  return Math.round((inside / fit.length) * 100);
}

/**
 * Rolling origin: each week priced with lane balance refitted on every report published before it (a report is
 * published on its date), week effects dropped as in the shipped fit; no earlier report, no price.
 */
function refittedBeforeEachWeek(all: PricedLaneWeek[], by: Grouping): (w: PricedLaneWeek) => number | undefined {
  const prices = new Map<string, (w: PricedLaneWeek) => number>();
  return (w) => {
    const before = all.filter((other) => other.week < w.week);
    if (before.length === 0) return undefined;
    if (!prices.has(w.week)) prices.set(w.week, balancedBy(fittedLaneBalance(before, by), by));
    return prices.get(w.week)!(w);
  };
}

/**
 * Each district's held-out lane-weeks priced with a lane balance refitted without that district's fit lane-weeks:
 * how the factor does on lanes it was not fitted on (a market only that district ships from gets no outbound figure).
 */
function leaveOneDistrictOut(fit: PricedLaneWeek[]): (w: PricedLaneWeek) => number {
  const refits = new Map<string, (w: PricedLaneWeek) => number>();
  return (w) => {
    if (!refits.has(w.district))
      refits.set(
        w.district,
        balancedBy(fittedLaneBalance(fit.filter((other) => other.district !== w.district)), BY_MARKET),
      );
    return refits.get(w.district)!(w);
  };
}

/** The reports published before a week, read as a view the day before it would read them. */
const reportsBefore = (week: string): UsdaLaneWeek[] =>
  usdaLaneWeeks(data.view(new Date(Date.parse(week) - DAY_MS).toISOString().slice(0, 10), KNOWN_AT));

/**
 * Rolling origin: each lane-week scaled by USDA's reefer rate index of the last report before its week
 * (usda-market-level.ts); withoutOwnDistrict builds the index without any lane of the lane's own district.
 */
function scaledByPriorIndex(withoutOwnDistrict: boolean): (w: PricedLaneWeek) => number | undefined {
  const levels = new Map<string, ReturnType<typeof marketLevelBefore>>();
  return (w) => {
    const key = `${w.week}|${withoutOwnDistrict ? w.district : ""}`;
    if (!levels.has(key)) {
      const visible = reportsBefore(w.week).filter((lane) => !withoutOwnDistrict || lane.district !== w.district);
      levels.set(key, marketLevelBefore(w.week, visible, FIT_WEEKS));
    }
    const level = levels.get(key);
    return level && w.cost * level.factor;
  };
}

/** Each week's lane-weeks scaled so their median error is nil: USDA's level that very week, which no one knows before it. */
function scaledToSameWeekLevel(
  all: PricedLaneWeek[],
  costOf: UnbalancedCost = (w) => w.cost,
): (w: PricedLaneWeek) => number {
  const weeks = new Map<string, number>();
  for (const week of new Set(all.map((w) => w.week))) {
    weeks.set(week, median(all.filter((w) => w.week === week).map((w) => Math.log(midpointOf(w) / costOf(w)))));
  }
  return (w) => costOf(w) * Math.exp(weeks.get(w.week)!);
}

/**
 * Each lane-week's cost with the median fit-week error (in logs) of its group taken off: a factor per group fitted on
 * the fit weeks only. Grouped by lane it memorises USDA lane by lane, which is copying the market, not a cost basis.
 */
function scaledByFitGroupError(
  fit: PricedLaneWeek[],
  groupOf: (w: PricedLaneWeek) => string,
): (w: PricedLaneWeek) => number | undefined {
  const logs = new Map<string, number[]>();
  for (const w of fit) logs.set(groupOf(w), [...(logs.get(groupOf(w)) ?? []), Math.log(midpointOf(w) / w.cost)]);
  return (w) => {
    const group = logs.get(groupOf(w));
    return group && w.cost * Math.exp(middle(group));
  };
}

function usdaSection(): string[] {
  const all = usdaLaneWeeks().map(priceLaneWeek);
  if (all.length === 0)
    return ["### USDA AMS reefer lane-weeks", "", "The snapshot holds no USDA AMS FVWTRK weeks; nothing to compare."];
  const fit = all.filter((w) => FIT_WEEKS.includes(w.week));
  const heldOut = all.filter((w) => HELD_OUT_WEEKS.includes(w.week));
  const groups = new Map<string, PricedLaneWeek[]>();
  for (const w of fit) {
    for (const key of [
      `USDA band ${distanceBand(w.miles)}`,
      `to ${w.destination}`,
      `from ${w.originMarket ?? "no fitted market"}`,
      `week ${w.week}`,
    ]) {
      groups.set(key, [...(groups.get(key) ?? []), w]);
    }
  }
  const spread = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, lanes]) => {
      const errors = lanes.map((w) => (w.cost - midpointOf(w)) / midpointOf(w));
      return `| ${key} | ${lanes.length} | ${Math.round((lanes.filter((w) => inRange(w, w.cost)).length / lanes.length) * 100)} % | ${pct(median(errors))} |`;
    });
  const widths = all.map((w) => (w.high - w.low) / midpointOf(w));
  const moves = weeklyMoves(all);
  const byPriorIndex = scaledByPriorIndex(false);
  const { outbound, inbound } = RATE_MODEL.laneBalance.value;
  const fitted = fittedLaneBalance(fit);
  const drift =
    JSON.stringify({ outbound: fitted.outbound, inbound: fitted.inbound }) !== JSON.stringify({ outbound, inbound });
  return [
    "### REEFER cost basis (no surcharge) vs USDA AMS FVWTRK $/load",
    "",
    `Per-load cost ${JSON.stringify(RATE_MODEL.perLoad.value)}; lane balance (fitted on the fit weeks only) outbound ${JSON.stringify(outbound)}, inbound ${JSON.stringify(inbound)}.`,
    "",
    "| weeks | lane-weeks | inside USDA's range | median signed error vs midpoint | 10th..90th percentile | loads under 500 mi | their median error |",
    "|---|---|---|---|---|---|---|",
    accuracyRow(`fit weeks (${FIT_WEEKS.join(", ")})`, fit, (w) => w.cost),
    accuracyRow(`held-out weeks (${HELD_OUT_WEEKS.join(", ")})`, heldOut, (w) => w.cost),
    "",
    "Levers tried on the held-out weeks, each beside the share inside on the fit weeks under the same lever (in-sample where it was fitted on them); none of them is in the model:",
    "",
    "| held-out weeks priced by | fit weeks inside | lane-weeks | inside USDA's range | median signed error | 10th..90th | loads under 500 mi | their median error |",
    "|---|---|---|---|---|---|---|---|",
    leverRow(
      "the model",
      fit,
      heldOut,
      (w) => w.cost,
      ` (each fit week left out: ${leaveOneFitWeekOut(fit, BY_MARKET)} %)`,
    ),
    leverRow("the model without lane balance", fit, heldOut, (w) => w.costWithoutBalance),
    leverRow("lane balance refitted without the lane's own district", fit, heldOut, leaveOneDistrictOut(fit)),
    leverRow(
      "fuel at the origin's diesel instead of the lane's (lane balance refitted)",
      fit,
      heldOut,
      variantWithRefittedBalance(fit, (w) => w.costAtOriginDiesel),
    ),
    ...[0.1, 0.175].map((share) =>
      leverRow(
        `empty miles ${share * 100} % of the loaded miles instead of ${RATE_MODEL.perLoad.value.emptyMilesToPickup} per load (lane balance refitted)`,
        fit,
        heldOut,
        variantWithRefittedBalance(fit, emptyMilesAsShare(share)),
      ),
    ),
    leverRow("the REEFER multiplier refitted on the fit weeks (the model's level)", fit, heldOut, levelRefitted(fit)),
    leverRow(
      "lane balance by shipping district x destination city, fitted on the fit weeks",
      fit,
      heldOut,
      balancedBy(fittedLaneBalance(fit, BY_DISTRICT_AND_CITY), BY_DISTRICT_AND_CITY),
      ` (each fit week left out: ${leaveOneFitWeekOut(fit, BY_DISTRICT_AND_CITY)} %)`,
    ),
    leverRow(
      "lane balance refitted on the reports before each week (rolling origin), markets",
      fit,
      heldOut,
      refittedBeforeEachWeek(all, BY_MARKET),
    ),
    leverRow(
      "lane balance refitted on the reports before each week (rolling origin), districts x cities",
      fit,
      heldOut,
      refittedBeforeEachWeek(all, BY_DISTRICT_AND_CITY),
    ),
    leverRow("x USDA reefer index of the report before (rolling origin)", fit, heldOut, byPriorIndex),
    leverRow("x that index built without the lane's own district", fit, heldOut, scaledByPriorIndex(true)),
    leverRow("x USDA's level that same week (known only after the week)", fit, heldOut, scaledToSameWeekLevel(all)),
    leverRow(
      "x a factor per USDA distance band fitted on the fit weeks",
      fit,
      heldOut,
      scaledByFitGroupError(fit, (w) => distanceBand(w.miles)),
    ),
    leverRow(
      "x a factor per shipping district fitted on the fit weeks",
      fit,
      heldOut,
      scaledByFitGroupError(fit, (w) => w.district),
    ),
    ...[
      ["markets", BY_MARKET],
      ["districts x cities", BY_DISTRICT_AND_CITY],
    ].flatMap(([label, by]) => {
      const inSample = balancedBy(fittedLaneBalance(heldOut, by as Grouping), by as Grouping);
      return [
        leverRow(
          `lane balance fitted on the held-out weeks themselves, ${label} (in-sample: the factor's ceiling)`,
          fit,
          heldOut,
          inSample,
        ),
        leverRow(
          `the same x each held-out week's own level (in-sample, level known)`,
          fit,
          heldOut,
          scaledToSameWeekLevel(all, inSample),
        ),
      ];
    }),
    leverRow(
      "x each lane's own fit-week error (memorises USDA lane by lane, not a model)",
      fit,
      heldOut,
      scaledByFitGroupError(fit, (w) => `${w.district}|${w.destination}`),
    ),
    leverRow("USDA's own midpoint a week earlier (a ceiling, not a model)", fit, heldOut, previousWeekMidpoint(all)),
    "",
    `USDA reefer rate index (median over lanes of the midpoint / the lane's fit-week geometric mean): ${[
      ...reeferRateIndex(all, FIT_WEEKS),
    ]
      .map(([week, value]) => `${week} ${value.toFixed(3)}`)
      .join(
        ", ",
      )}. Inside USDA's range by held-out week, the model / x the index of the report before: ${HELD_OUT_WEEKS.map(
      (week) => {
        const lanes = heldOut.filter((w) => w.week === week);
        return `${week} ${shareInside(lanes, (w) => w.cost)} / ${shareInside(lanes, byPriorIndex)} %`;
      },
    ).join(", ")}.`,
    "",
    `USDA's range is ${pct(median(widths)).slice(1)} of its midpoint wide at the median (10th..90th ${pct(quantile(widths, 0.1)).slice(1)} .. ${pct(quantile(widths, 0.9)).slice(1)}): ` +
      "a lane-week is inside only when the answer is within about half that of the midpoint. " +
      `The same lane's midpoint moves from one weekly report to the next by ${pct(median(moves)).slice(1)} at the median (75th ${pct(quantile(moves, 0.75)).slice(1)}, 90th ${pct(quantile(moves, 0.9)).slice(1)}; ${moves.length} pairs of reports 7 days apart).`,
    ...(drift
      ? [
          "",
          `Refitting on the fit weeks now gives outbound ${JSON.stringify(fitted.outbound)}, inbound ${JSON.stringify(fitted.inbound)}: the shipped constants are stale.`,
        ]
      : []),
    "",
    "Where the held-out weeks miss (districts named by the town that prices them; read after the constants were fixed, to explain, not to choose):",
    "",
    ...heldOutErrorAnalysis(heldOut, (district) => DISTRICT_TOWNS[district] ?? district),
    "",
    "Where the fit weeks fall out (by USDA's own distance bands, destination, origin market and week):",
    "",
    "| fit lane-weeks | n | inside | median signed error |",
    "|---|---|---|---|",
    ...spread,
  ];
}

function printFit(): void {
  const fit = usdaLaneWeeks()
    .filter((w) => FIT_WEEKS.includes(w.week))
    .map(priceLaneWeek);
  console.log(JSON.stringify(fittedLaneBalance(fit), null, 2));
}

if (process.argv.includes("--fit")) {
  printFit();
  process.exit(0);
}

const report = [
  `## Fidelity (model ${RATE_MODEL.version})`,
  "",
  ...roadSection(),
  "",
  ...atriSection(),
  "",
  ...usdaSection(),
].join("\n");
console.log(report);

if (process.argv.includes("--readme")) {
  const readme = new URL("../../../README.md", import.meta.url).pathname;
  const text = readFileSync(readme, "utf8");
  const start = "<!-- fidelity:start -->";
  const end = "<!-- fidelity:end -->";
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < 0) throw new Error("README.md has no fidelity markers");
  writeFileSync(
    readme,
    `${text.slice(0, from + start.length)}\n${report.replace(/^## .*\n\n/, "")}\n${text.slice(to)}`,
  );
}
