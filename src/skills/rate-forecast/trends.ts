/**
 * The cost lines rate-forecast projects besides diesel: the driver wage and the equipment cost, each by its own
 * published history as of a date (docs/rate-model.md, "Forecast"). Point in time: only observations published by
 * the date count, so a backtest origin sees what a forecast made then would have seen.
 */
import { daysBetween } from "../../dates.ts";
import { NATIONAL_TRUCK_DRIVER_WAGE_SERIES } from "../../reference/series/series-ids.ts";
import { shiftDate } from "../../reference/series/series-stats.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import type { CostScale } from "../rate-lookup/index.ts";
import { EQUIPMENT_COST_INDEX } from "../rate-lookup/index.ts";

export interface CostTrend {
  /** Compound growth per year. */
  annualRate: number;
  from: Observation;
  to: Observation;
}

export interface CostHistories {
  wage: Observation[];
  equipment: Observation[];
}

export interface CostTrends {
  wage?: CostTrend;
  equipment?: CostTrend;
}

export const costHistories = (view: ReferenceView): CostHistories => ({
  wage: view.history(NATIONAL_TRUCK_DRIVER_WAGE_SERIES),
  equipment: view.history(EQUIPMENT_COST_INDEX),
});

const publishedBy = (observations: readonly Observation[], date: string) =>
  observations.filter((o) => o.observedOn <= date && o.publishedOn <= date);

function trendBetween(from: Observation | undefined, to: Observation | undefined): CostTrend | undefined {
  if (!from || !to) return undefined;
  const days = daysBetween(from.observedOn, to.observedOn);
  if (days <= 0 || from.value <= 0) return undefined;
  return { annualRate: (to.value / from.value) ** (365.25 / days) - 1, from, to };
}

/**
 * As of a date: the national OEWS median's growth between its two newest published editions, and the heavy-truck
 * PPI's change over the 12 months to its newest published month (the index that carries ATRI's equipment cost).
 */
export function costTrendsAsOf(histories: CostHistories, date: string): CostTrends {
  const wages = publishedBy(histories.wage, date);
  const ppi = publishedBy(histories.equipment, date);
  const newest = ppi.at(-1);
  const yearBefore = newest && ppi.filter((o) => o.observedOn <= shiftDate(newest.observedOn, { months: -12 })).at(-1);
  return { wage: trendBetween(wages.at(-2), wages.at(-1)), equipment: trendBetween(yearBefore, newest) };
}

/** Months between one release of a line and the next: OEWS once a year, the PPI every month. */
const RELEASE_CADENCE_MONTHS = { wage: 12, equipment: 1 } as const;

/** How many releases after the trend's newest one are due by `date`, each a cadence after the one before. */
function releasesDueBy(trend: CostTrend, cadenceMonths: number, date: string): number {
  let due = 0;
  while (shiftDate(trend.to.publishedOn, { months: cadenceMonths * (due + 1) }) <= date) due++;
  return due;
}

/**
 * The cost lines as the cost model will read them on `date`, forecast from `origin`: a line moves only by the releases
 * of it that fall due between the two, each by its trend over the months it adds (docs/rate-model.md, "Forecast"). A
 * wage edition a year away leaves the wage where it is for a forecast of a few weeks.
 */
export function projectedScale(trends: CostTrends, origin: string, date: string): CostScale {
  const scale = (trend: CostTrend | undefined, cadenceMonths: number) => {
    if (!trend) return 1;
    const releases = releasesDueBy(trend, cadenceMonths, date) - releasesDueBy(trend, cadenceMonths, origin);
    return (1 + trend.annualRate) ** ((releases * cadenceMonths) / 12);
  };
  return {
    wage: scale(trends.wage, RELEASE_CADENCE_MONTHS.wage),
    equipment: scale(trends.equipment, RELEASE_CADENCE_MONTHS.equipment),
  };
}

/**
 * The wage and equipment levels published by `date` against those published by `reference`: how the cost lines a
 * forecast holds had in fact moved (the national OEWS median and the heavy-truck PPI stand for the lane's figures).
 */
export function levelScale(histories: CostHistories, date: string, reference: string): CostScale {
  const ratio = (series: readonly Observation[]) => {
    const then = publishedBy(series, date).at(-1);
    const now = publishedBy(series, reference).at(-1);
    return then && now ? then.value / now.value : 1;
  };
  return { wage: ratio(histories.wage), equipment: ratio(histories.equipment) };
}
