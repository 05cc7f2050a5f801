/**
 * The figures the capacity answer reports beside its index: who can haul in the area (supply) and
 * how much freight there is (demand). Each figure names its series, date and source; a figure the
 * data does not hold is null and named in `missing`, never estimated.
 */
import { stateInfo, type StateCode } from "../../reference/geo/regions.ts";
import {
  ATA_TONNAGE_SA,
  CASS_SHIPMENTS_INDEX,
  FMCSA_NET_CHANGE_CARRIERS,
  FMCSA_NET_REVOCATIONS,
  FMCSA_NEW_FORHIRE_AUTHORITIES,
  fmcsaNewCarriersSeries,
  NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES,
  NATIONAL_TRUCK_DRIVER_WAGE_SERIES,
  stateTruckDriverEmploymentSeries,
  stateTruckDriverWageSeries,
} from "../../reference/series/series-ids.ts";
import type { ReferenceView } from "../../reference/storage/view.ts";
import { round } from "../kit.ts";
import type { Area } from "./area.ts";
import { censusDates, censusTotalsOn, type CensusCounts } from "./census.ts";
import { changeOver, figureOf, sourceOf, type Figure, type UsedObservations } from "./figures.ts";

/** A figure with its change over 3 and 12 months, in percent. */
export interface TrendFigure extends Figure {
  change_3m_percent: number | null;
  change_12m_percent: number | null;
}

const TREND_FLAT_PERCENT = 0.5;

function trendFigure(view: ReferenceView, seriesId: string, unit: string, used: UsedObservations): TrendFigure | null {
  const latest = view.latest(seriesId);
  if (!latest) return null;
  const [three, twelve] = [changeOver(view, latest, 3), changeOver(view, latest, 12)];
  used.add(three?.from, twelve?.from);
  return {
    ...figureOf(latest, unit, used),
    change_3m_percent: three?.percent ?? null,
    change_12m_percent: twelve?.percent ?? null,
  };
}

type Direction = "RISING" | "FALLING" | "FLAT";

const direction = (figure: TrendFigure | null): Direction | null =>
  figure?.change_3m_percent == null
    ? null
    : figure.change_3m_percent > TREND_FLAT_PERCENT
      ? "RISING"
      : figure.change_3m_percent < -TREND_FLAT_PERCENT
        ? "FALLING"
        : "FLAT";

const censusOut = (counts: CensusCounts) => ({
  carriers: counts.CARRIERS,
  power_units: counts.POWER_UNITS,
  drivers: counts.DRIVERS,
});

function census(view: ReferenceView, area: Area, used: UsedObservations) {
  const date = censusDates(view).at(-1);
  const totals = date === undefined ? undefined : censusTotalsOn(view, area, date);
  if (!totals) return null;
  used.add(...totals.observations);
  return {
    date: totals.date,
    series_id: "FMCSA_CENSUS_<MEASURE>_<ST>_<OP>",
    source: sourceOf("FMCSA_CENSUS_"),
    for_hire: censusOut(totals.total),
    by_operation: {
      A: censusOut(totals.byOperation.A),
      B: censusOut(totals.byOperation.B),
      C: censusOut(totals.byOperation.C),
    },
  };
}

/** OEWS 53-3032 employment and median wage per state; an area total only when every state has employment. */
function truckDrivers(view: ReferenceView, area: Area, used: UsedObservations) {
  const byState = area.states.map((state: StateCode) => {
    const { fips } = stateInfo(state);
    const employment = view.latest(stateTruckDriverEmploymentSeries(fips));
    const wage = view.latest(stateTruckDriverWageSeries(fips));
    return {
      state,
      employment: employment ? figureOf(employment, "jobs", used) : null,
      median_wage_hourly: wage ? figureOf(wage, "USD/hour", used) : null,
    };
  });
  const employments = byState.flatMap((s) => (s.employment ? [s.employment] : []));
  const [onlyEmployment] = employments;
  const national = view.latest(NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES);
  const total =
    area.kind === "NATIONAL"
      ? national && figureOf(national, "jobs", used)
      : employments.length !== area.states.length
        ? null
        : employments.length === 1 && onlyEmployment
          ? onlyEmployment
          : {
              value: employments.reduce((sum, e) => sum + e.value, 0),
              unit: "jobs",
              series_id: "sum of OEUS<FIPS>00000000000053303201",
              // Newest date; an area has at least one state, and here every state has employment.
              date: employments.map((e) => e.date).reduce((newest, date) => (date > newest ? date : newest)),
              source: sourceOf("OEU"),
            };
  const nationalWage = view.latest(NATIONAL_TRUCK_DRIVER_WAGE_SERIES);
  return {
    employment: total ?? null,
    states_without_employment: area.kind === "NATIONAL" ? [] : byState.filter((s) => !s.employment).map((s) => s.state),
    national_median_wage_hourly: nationalWage ? figureOf(nationalWage, "USD/hour", used) : null,
    by_state: area.kind === "NATIONAL" ? [] : byState,
  };
}

function carrierPopulation(view: ReferenceView, used: UsedObservations) {
  const read = (seriesId: string) => {
    const latest = view.latest(seriesId);
    return latest ? figureOf(latest, "carriers per month", used) : null;
  };
  return {
    scope: "NATIONAL" as const,
    new_authorities: read(FMCSA_NEW_FORHIRE_AUTHORITIES),
    net_revocations: read(FMCSA_NET_REVOCATIONS),
    net_change: read(FMCSA_NET_CHANGE_CARRIERS),
  };
}

function newCarriers(view: ReferenceView, area: Area, used: UsedObservations) {
  return area.states.flatMap((state) => {
    const latest = view.latest(fmcsaNewCarriersSeries(state));
    return latest ? [{ state, ...figureOf(latest, "new carriers in the month", used) }] : [];
  });
}

export function supplyFigures(view: ReferenceView, area: Area, used: UsedObservations) {
  const truckEmployment = trendFigure(view, "CES4348400001", "thousands", used);
  return {
    census: census(view, area, used),
    truck_drivers: truckDrivers(view, area, used),
    national_truck_employment: truckEmployment && { ...truckEmployment, trend: direction(truckEmployment) },
    carrier_population: carrierPopulation(view, used),
    new_carriers_by_state: newCarriers(view, area, used),
  };
}

export function demandFigures(
  view: ReferenceView,
  area: Area,
  supply: ReturnType<typeof supplyFigures>,
  used: UsedObservations,
) {
  const nationalDrivers = view.latest(NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES);
  const areaDrivers = supply.truck_drivers.employment;
  const nationalUnits =
    area.kind !== "NATIONAL" && supply.census
      ? censusTotalsOn(view, { name: "NATIONAL", kind: "NATIONAL", states: [] }, supply.census.date, ["POWER_UNITS"])
      : undefined;
  used.add(...(nationalUnits?.observations ?? []));
  return {
    freight_tsi: trendFigure(view, "TSIFRGHT", "index 2000=100", used),
    cass_shipments: trendFigure(view, CASS_SHIPMENTS_INDEX, "index Jan 1990=1", used),
    ata_tonnage: trendFigure(view, ATA_TONNAGE_SA, "index 2015=100", used),
    industrial_production: trendFigure(view, "INDPRO", "index 2017=100", used),
    area_share: {
      truck_driver_employment_percent:
        area.kind !== "NATIONAL" && areaDrivers && nationalDrivers
          ? round((areaDrivers.value / nationalDrivers.value) * 100, 2)
          : null,
      census_power_units_percent:
        nationalUnits && supply.census && nationalUnits.total.POWER_UNITS > 0
          ? round((supply.census.for_hire.power_units / nationalUnits.total.POWER_UNITS) * 100, 2)
          : null,
      freight_volume_percent: null,
      note: "No public series measures freight volume by state; the area's share of U.S. truck-driver jobs (OEWS) and of for-hire power units (census) stand in for it where loaded.",
    },
  };
}
