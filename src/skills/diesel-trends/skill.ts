import type { Static } from "@sinclair/typebox";
import {
  DIESEL_AREA_NAMES,
  DIESEL_REGION_NAMES,
  DIESEL_REGIONS,
  type DieselRegion,
} from "../../reference/geo/regions.ts";
import { dieselSeriesId } from "../../reference/series/series-ids.ts";
import type { Change } from "../../reference/series/series-stats.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import { beforeData, round } from "../kit.ts";
import { distinctFactors } from "../kit.ts";
import { defineSkill } from "../types.ts";
import { DIESEL_TRENDS_MODEL } from "./constants.ts";
import { dieselTrendsInput, dieselTrendsOutput } from "./schema.ts";
import { latestWithChange, seriesTrend } from "./trend.ts";
import { daysBetween } from "../../dates.ts";

type Output = Static<typeof dieselTrendsOutput>;

const SIDE_BY_SIDE_CHANGE_WEEKS = 4;
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const perGallon = (value: number | undefined) => orNull(value === undefined ? undefined : round(value, 4));
const percent = (change: Change | undefined) =>
  orNull(change?.percent === undefined ? undefined : round(change.percent, 2));

function regionsSideBySide(view: ReferenceView): { rows: Output["regions"]; used: Observation[] } {
  const rows: Output["regions"] = [];
  const used: Observation[] = [];
  for (const region of DIESEL_REGION_NAMES) {
    const seriesId = dieselSeriesId(DIESEL_REGIONS[region]);
    const reading = latestWithChange(view, seriesId, SIDE_BY_SIDE_CHANGE_WEEKS);
    if (!reading) continue; // the series had not started yet
    used.push(reading.latest, ...(reading.change ? [reading.change.from] : []));
    rows.push({
      region,
      area_name: DIESEL_AREA_NAMES[DIESEL_REGIONS[region]],
      series_id: seriesId,
      latest_price: reading.latest.value,
      observation_date: reading.latest.observedOn,
      change_4_weeks: perGallon(reading.change?.absolute),
      change_4_weeks_percent: percent(reading.change),
    });
  }
  return { rows, used };
}

function lagNote(view: ReferenceView, latest: Observation): string | undefined {
  const national = view.latest(dieselSeriesId("NUS"));
  if (!national || daysBetween(latest.observedOn, national.observedOn) <= 0) return undefined;
  return `The newest week for this region is ${latest.observedOn}; the U.S. average runs to ${national.observedOn}.`;
}

export const dieselTrendsSkill = defineSkill({
  name: "diesel-trends",
  minimumTier: "explorer",
  description:
    "EIA weekly retail diesel for a region: the last N weeks, changes over 1/4/13/52 weeks, 4- and 13-week moving averages, " +
    "direction (RISING/FALLING/FLAT), and every region's latest price and 4-week change side by side.",
  rest: { method: "GET", path: "/v1/diesel/trends" },
  input: dieselTrendsInput,
  output: dieselTrendsOutput,
  replayable: true,
  asOf: (input) => input.as_of,
  handler(input, { data: view }) {
    const region: DieselRegion = input.region ?? "NATIONAL";
    const weeks = input.weeks ?? DIESEL_TRENDS_MODEL.windowWeeks.value.default;
    const area = DIESEL_REGIONS[region];
    const seriesId = dieselSeriesId(area);
    const trend = seriesTrend(view, seriesId, weeks);
    if (!trend) throw beforeData(`${DIESEL_AREA_NAMES[area]} diesel price`, view.asOf);
    const sideBySide = regionsSideBySide(view);
    const note = lagNote(view, trend.latest);

    const answer: Output = {
      region,
      area_name: DIESEL_AREA_NAMES[area],
      series_id: seriesId,
      as_of: view.asOf,
      weeks,
      latest: { date: trend.latest.observedOn, price: trend.latest.value },
      series: trend.window.map((observation) => ({ date: observation.observedOn, price: observation.value })),
      changes: trend.changes.map(({ weeks: horizon, change }) => ({
        weeks: horizon,
        from_date: orNull(change?.from.observedOn),
        from_price: orNull(change?.from.value),
        absolute: perGallon(change?.absolute),
        percent: percent(change),
      })),
      moving_averages: {
        weeks_4: perGallon(trend.movingAverages.short),
        weeks_13: perGallon(trend.movingAverages.long),
      },
      direction: {
        value: trend.direction.value,
        ma_spread_percent: orNull(
          trend.direction.spreadPercent === undefined ? undefined : round(trend.direction.spreadPercent, 2),
        ),
        rule: DIESEL_TRENDS_MODEL.direction.source,
      },
      ...(note && { note }),
      regions: sideBySide.rows,
      factor_versions: distinctFactors([...trend.used, ...sideBySide.used]),
      model_version: DIESEL_TRENDS_MODEL.version,
    };
    return { answer, factorVersions: answer.factor_versions, modelVersion: DIESEL_TRENDS_MODEL.version };
  },
});
