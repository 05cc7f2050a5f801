import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { importFmcsaCensus } from "../../../src/reference/importers/census-import.ts";
import { round } from "../../../src/skills/kit.ts";
import { resolveArea } from "../../../src/skills/carrier-capacity/area.ts";
import type { ReferenceView } from "../../../src/reference/storage/view.ts";
import {
  CAPACITY_MODEL,
  type PressureInputId,
  type PressureInputSpec,
} from "../../../src/skills/carrier-capacity/constants.ts";
import { earlierView } from "../../../src/skills/carrier-capacity/figures.ts";
import { pressureIndex } from "../../../src/skills/carrier-capacity/pressure.ts";
import { carrierCapacitySkill } from "../../../src/skills/carrier-capacity/skill.ts";
import type { AnyReadingSkill } from "../../../src/skills/types.ts";
import { writeCensusFile, type ExpectedCensus } from "../../reference/census-file.ts";
import { LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";
import { callSkill, detailsOf, refusalOf } from "../../support/skill-call.ts";
import { defined } from "../../support/defined.ts";

const skill = carrierCapacitySkill as unknown as AnyReadingSkill;
// biome-ignore lint/suspicious/noExplicitAny: the answer is checked field by field
const answer = (data: Awaited<ReturnType<typeof snapshotReferenceData>>["data"], raw: unknown): any =>
  callSkill(skill, data, raw).answer;

const embeddedOnly = await snapshotReferenceData();
const NATIONAL = resolveArea("NATIONAL", undefined);
const withCensus = await snapshotReferenceData();

describe("carrier-capacity from the embedded series only (no census)", () => {
  const { data } = embeddedOnly;

  test.each(["2020-04-15", "2021-04-15", "2023-04-15", "2024-10-15"])(
    "as of %s the label is the value read against ±20",
    (asOf) => {
      const { value, label } = answer(data, { as_of: asOf }).capacity_pressure;
      expect(Math.abs(value)).toBeLessThanOrEqual(100);
      expect(label).toBe(value > 20 ? "TIGHT" : value < -20 ? "LOOSE" : "BALANCED");
    },
  );

  test("the index's own history reaches both ends: some quarters since 2018 read TIGHT, some LOOSE", () => {
    const labels = new Set<string | null>();
    for (let year = 2018; year <= 2025; year++)
      for (const month of ["03", "06", "09", "12"])
        labels.add(pressureIndex(data.view(`${year}-${month}-20`, LOADED_AT), NATIONAL).label);
    expect(labels).toContain("TIGHT");
    expect(labels).toContain("LOOSE");
  });

  /** The view with the latest observation of one series moved by `factor`: the same market, one input changed. */
  const nudged = (view: ReferenceView, seriesId: string, factor: number): ReferenceView => {
    const newest = view.latest(seriesId);
    const moved = (o: ReturnType<ReferenceView["history"]>[number]) =>
      o.observedOn === newest?.observedOn ? { ...o, value: o.value * factor } : o;
    return {
      ...view,
      latest: (id) => {
        const latest = view.latest(id);
        return id === seriesId && latest ? moved(latest) : latest;
      },
      history: (id, from) => (id === seriesId ? view.history(id, from).map(moved) : view.history(id, from)),
    };
  };

  const ownHistoryInputs = (Object.keys(CAPACITY_MODEL.inputs.value) as PressureInputId[]).filter(
    (id) => CAPACITY_MODEL.inputs.value[id].scale.kind === "own_history",
  );

  test.each(ownHistoryInputs)("a rise in %s's latest figure moves the index towards tight, as documented", (id) => {
    const spec: PressureInputSpec = CAPACITY_MODEL.inputs.value[id];
    const view = data.view("2024-09-20", LOADED_AT);
    const before = pressureIndex(view, NATIONAL);
    const after = pressureIndex(nudged(view, spec.seriesId ?? "", 1.02), NATIONAL);
    const reading = (index: typeof before) => index.readings.find((r) => r.id === id);
    expect(reading(before)?.effectiveWeight).toBeGreaterThan(0);
    expect(reading(after)?.standardScore ?? 0).toBeGreaterThan(reading(before)?.standardScore ?? 0);
    expect(Math.sign((reading(after)?.signal ?? 0) - (reading(before)?.signal ?? 0))).toBe(spec.polarity);
    expect(after.value ?? 0).toBeGreaterThan(before.value ?? 0);
  });

  test("an own-history input's standard score is its change against the same change over the 10 years before", () => {
    const view = data.view("2024-09-20", LOADED_AT);
    const reading = pressureIndex(view, NATIONAL).readings.find((r) => r.id === "truck_employment");
    const series = view.history("CES4348400001");
    const yoy = (i: number) => ((series[i]?.value ?? 0) / (series[i - 12]?.value ?? 1) - 1) * 100;
    const last = series.length - 1;
    const past = Array.from({ length: 120 }, (_, k) => yoy(last - 120 + k));
    const mean = past.reduce((a, b) => a + b, 0) / past.length;
    const sd = Math.sqrt(past.reduce((a, b) => a + (b - mean) ** 2, 0) / (past.length - 1));
    expect(reading?.measured ?? 0).toBeCloseTo(yoy(last), 1);
    expect(reading?.standardScore ?? 0).toBeCloseTo((yoy(last) - mean) / sd, 1);
    expect(reading?.signal).toBeCloseTo(Math.max(-1, Math.min(1, (reading?.standardScore ?? 0) / 2)), 2);
  });

  test("an input with too little of its own history is left out and says why", () => {
    // Industrial production starts in 2018 in the snapshot: by mid-2020 there are 18 months of year-on-year change.
    const body = answer(data, { as_of: "2020-09-20" });
    const input = body.capacity_pressure.inputs.find((i: { id: string }) => i.id === "industrial_production");
    expect(input).toMatchObject({ effective_weight: 0, contribution: null, standard_score: null });
    expect(input.measured).not.toBeNull();
    expect(input.missing).toMatch(/months of its own history .* \(needs 36\)/);
  });

  test("each counted input's contribution, weight and freshness add up to the index", async () => {
    const { capacity_pressure: index } = answer(data, { as_of: "2021-04-15" });
    const counted = index.inputs.filter((input: { contribution: number | null }) => input.contribution !== null);
    expect(counted.length).toBeGreaterThanOrEqual(3);
    const sum = counted.reduce((total: number, input: { contribution: number }) => total + input.contribution, 0);
    expect(Math.abs(sum - index.value)).toBeLessThanOrEqual(0.5);
    for (const input of counted) {
      expect(input).toMatchObject({ freshness: "FRESH", effective_weight: input.weight });
      expect(Math.sign(input.contribution)).toBe(Math.sign(input.signal));
    }
    expect(index.reasons[0]).toMatch(/points$/);
  });

  test("the history is the index recomputed as of 3, 6 and 12 months earlier", async () => {
    const { capacity_pressure: index } = answer(data, { as_of: "2021-04-15" });
    expect(index.history.map((h: { as_of: string }) => h.as_of)).toEqual(["2021-01-15", "2020-10-15", "2020-04-15"]);
    const view = data.view("2021-04-15", LOADED_AT);
    for (const past of index.history) {
      const recomputed = pressureIndex(earlierView(view, past.as_of), resolveArea("NATIONAL", undefined));
      expect(past).toMatchObject({ value: recomputed.value, label: recomputed.label });
    }
  });

  test("without a census it answers, names what is missing, caps confidence and invents no count", async () => {
    const body = answer(data, { area: "TX", as_of: "2025-06-15" });
    expect(body.supply.census).toBeNull();
    expect(body.demand.area_share.census_power_units_percent).toBeNull();
    expect(body.missing).toContain("census: no FMCSA Company Census File imported (waybill data import fmcsa FILE)");
    expect(body.confidence.level).not.toBe("HIGH");
    expect(body.confidence.reasons).toContain(
      "no FMCSA census loaded: the area's carriers, power units and drivers are unknown",
    );
    const census = body.capacity_pressure.inputs.find((input: { id: string }) => input.id === "census_power_units");
    expect(census).toMatchObject({ measured: null, contribution: null, effective_weight: 0 });
    // Every figure it does report names its series, date and source.
    expect(body.supply.truck_drivers.by_state[0].median_wage_hourly).toMatchObject({
      series_id: "OEUS480000000000053303208",
      date: "2024-05-01",
    });
    expect(body.supply.national_truck_employment).toMatchObject({
      series_id: "CES4348400001",
      source: expect.any(String),
    });
    expect(body.supply.truck_drivers.employment).toMatchObject({
      value: 212_700,
      series_id: "OEUS480000000000053303201",
      date: "2024-05-01",
    });
  });

  test("an area total of driver jobs is given only when every state's figure is known", async () => {
    const body = answer(data, { states: ["TX", "CA"], as_of: "2025-06-15" });
    expect(body.supply.truck_drivers.employment).toBeNull();
    expect(body.supply.truck_drivers.states_without_employment).toEqual(["CA"]);
    expect(body.demand.area_share.truck_driver_employment_percent).toBeNull();
    expect(body.missing).toContain("truck-driver employment (OEWS 53-3032) for CA");
    const share = answer(data, { area: "TX", as_of: "2025-06-15" }).demand.area_share.truck_driver_employment_percent;
    expect(share).toBeCloseTo((212_700 / 2_070_480) * 100, 2);
  });

  test("carrier entries and exits and new carriers by state are the published monthly counts", async () => {
    const body = answer(data, { area: "TX", as_of: "2026-02-15" });
    expect(body.supply.carrier_population).toMatchObject({
      scope: "NATIONAL",
      new_authorities: { value: 4140, date: "2025-12-01", series_id: "FMCSA_NEW_FORHIRE_AUTHORITIES" },
      net_revocations: { value: 6427, date: "2025-12-01" },
      net_change: { value: -2287, date: "2025-12-01" },
    });
    const netChange = body.capacity_pressure.inputs.find((i: { id: string }) => i.id === "carrier_net_change");
    // The months of the last quarter that were published: October +132 and December -2,287.
    expect(netChange).toMatchObject({ measured: round((132 - 2287) / 2, 1), freshness: "FRESH" });
    expect(netChange.signal).toBeGreaterThan(0);
    expect(answer(data, { states: ["TX", "CA"], as_of: "2022-08-01" }).supply.new_carriers_by_state).toMatchObject([
      { state: "TX", value: 1703, date: "2022-06-01", series_id: "FMCSA_NEW_CARRIERS_TX" },
      { state: "CA", value: 1658, date: "2022-06-01" },
    ]);
  });

  test("areas resolve to their states: a PADD, a census region, a list", async () => {
    expect(answer(data, { area: "PADD3", as_of: "2024-01-15" }).area.states).toEqual([
      "AL",
      "AR",
      "LA",
      "MS",
      "NM",
      "TX",
    ]);
    expect(answer(data, { area: "NORTHEAST", as_of: "2024-01-15" }).area).toMatchObject({
      kind: "CENSUS_REGION",
      states: expect.arrayContaining(["NY", "PA", "ME"]),
    });
    expect(answer(data, { states: ["TX", "OK", "TX"], as_of: "2024-01-15" }).area).toEqual({
      name: "TX+OK",
      kind: "STATES",
      states: ["TX", "OK"],
    });
  });

  test("bad input is refused with the field and the allowed values", async () => {
    const both = refusalOf(() => callSkill(skill, data, { area: "TX", states: ["OK"] }));
    expect(detailsOf(both)).toEqual([{ field: "states", problem: "give either area or states, not both" }]);
    const unknown = defined(
      detailsOf(refusalOf(() => callSkill(skill, data, { area: "ATLANTIS" })))[0],
      "the refusal's first detail",
    );
    expect(unknown).toMatchObject({
      field: "area",
      allowed: expect.arrayContaining(["NATIONAL", "PADD2", "MIDWEST", "TX"]),
    });
    expect(detailsOf(refusalOf(() => callSkill(skill, data, { as_of: "1980-01-01" })))[0]).toMatchObject({
      field: "as_of",
    });
  });
});

describe("carrier-capacity with an imported census", () => {
  const { db, data } = withCensus;
  const tmp = join(import.meta.dir, "../../../.tmp/capacity-census");
  let early: ExpectedCensus;
  let late: ExpectedCensus;

  beforeAll(async () => {
    early = await writeCensusFile(join(tmp, "FMCSA_CENSUS1_2025Jan.txt"), { rows: 3000, seed: 1 });
    late = await writeCensusFile(join(tmp, "FMCSA_CENSUS1_2025Sep.txt"), { rows: 2600, seed: 2 });
    await importFmcsaCensus(db, join(tmp, "FMCSA_CENSUS1_2025Jan.txt"), { now: LOADED_AT });
    await importFmcsaCensus(db, join(tmp, "FMCSA_CENSUS1_2025Sep.txt"), { now: LOADED_AT });
  }, 60_000);

  const sumOf = (census: ExpectedCensus, states: string[], measure: "carriers" | "powerUnits" | "drivers") =>
    states
      .flatMap((state) => ["A", "B", "C"].map((op) => census.cells.get(`${state}_${op}`)?.[measure] ?? 0))
      .reduce((a, b) => a + b, 0);

  test("the area's for-hire carriers, power units and drivers are the census counts, by operation too", async () => {
    const body = answer(data, { states: ["TX", "GA"], as_of: "2025-10-15" });
    expect(body.supply.census).toMatchObject({
      date: "2025-09-01",
      for_hire: {
        carriers: sumOf(late, ["TX", "GA"], "carriers"),
        power_units: sumOf(late, ["TX", "GA"], "powerUnits"),
        drivers: sumOf(late, ["TX", "GA"], "drivers"),
      },
    });
    expect(body.supply.census.by_operation.A.carriers).toBe(
      (late.cells.get("TX_A")?.carriers ?? 0) + (late.cells.get("GA_A")?.carriers ?? 0),
    );
    const nationalUnits = [...late.cells.values()].reduce((sum, cell) => sum + cell.powerUnits, 0);
    expect(body.demand.area_share.census_power_units_percent).toBeCloseTo(
      (sumOf(late, ["TX", "GA"], "powerUnits") / nationalUnits) * 100,
      2,
    );
    expect(body.missing.some((line: string) => line.startsWith("census"))).toBe(false);
  });

  test("two censuses 8 months apart give the area's change in power units as a supply input", async () => {
    const body = answer(data, { area: "TX", as_of: "2025-10-15" });
    const input = body.capacity_pressure.inputs.find((i: { id: string }) => i.id === "census_power_units");
    const [before, after] = [sumOf(early, ["TX"], "powerUnits"), sumOf(late, ["TX"], "powerUnits")];
    expect(input.measured).toBeCloseTo(((after - before) / before) * 100, 2);
    expect(input.effective_weight).toBeGreaterThan(0);
    // Fewer trucks than before is capacity leaving: the signal points to tight.
    expect(Math.sign(input.signal)).toBe(-Math.sign(after - before));
    expect(
      body.factor_versions.some((f: { series_id: string }) => f.series_id === "FMCSA_CENSUS_POWER_UNITS_TX_A"),
    ).toBe(true);
  });

  test("as of a date before the first census, the census is not there", async () => {
    expect(answer(data, { area: "TX", as_of: "2024-12-15" }).supply.census).toBeNull();
  });
});
