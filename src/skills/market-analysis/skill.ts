import type { Static } from "@sinclair/typebox";
import { dieselFallbackReason, dieselPrice } from "../../reference/readings/diesel.ts";
import { DIESEL_REGIONS, type DieselRegion } from "../../reference/geo/regions.ts";
import { dieselSeriesId } from "../../reference/series/series-ids.ts";
import { earlierView, type ReferenceView } from "../../reference/storage/view.ts";
import { daysBetween, utcDateOf } from "../../dates.ts";
import { beforeData, round } from "../kit.ts";
import { distinctFactors } from "../kit.ts";
import { defineSkill } from "../types.ts";
import { INDICATOR_IDS, MARKET_MODEL, type IndicatorId } from "./constants.ts";
import { readIndicator, type IndicatorReading } from "./indicator.ts";
import { marketAnalysisInput, marketAnalysisOutput } from "./schema.ts";
import { compositeSignal } from "./signal.ts";

type Output = Static<typeof marketAnalysisOutput>;

const SEARCH_MONTHS = 12;

/** The last day of the month `back` months before the month of `isoDate`. */
const monthEndBefore = (isoDate: string, back: number): string =>
  utcDateOf(Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - back, 0));

/**
 * The signal as of the view, or, when the call named no as_of and too little is fresh today (shipped
 * or synced figures lag), as of the newest month-end in the past year with enough fresh indicators.
 * The answer says which day it was read as of and how old the figures are today.
 */
function newestReadableMonth(today: ReferenceView, region: DieselRegion, mayStepBack: boolean) {
  const read = (view: ReferenceView) => {
    const { readings, dieselFallback } = readIndicators(view, region);
    return { view, readings, dieselFallback, signal: compositeSignal(readings) };
  };
  const current = read(today);
  if (!mayStepBack || current.signal.value !== "INSUFFICIENT_DATA") return current;
  for (let back = 0; back <= SEARCH_MONTHS; back++) {
    const monthEnd = monthEndBefore(today.asOf, back);
    if (monthEnd >= today.asOf) continue;
    const earlier = read(earlierView(today, monthEnd));
    if (earlier.signal.value !== "INSUFFICIENT_DATA") {
      const ages = earlier.readings.map((r) => daysBetween(r.latest.observedOn, today.asOf));
      earlier.signal.reasons.unshift(
        `Read as of ${monthEnd}, the newest month-end with enough fresh indicators; today (${today.asOf}) the newest figures are ${Math.min(...ages)} to ${Math.max(...ages)} days old.`,
      );
      return earlier;
    }
  }
  return current;
}

/** Every indicator observed as of the view; diesel from the region's EIA area (or a broader one, see dieselPrice). */
function readIndicators(view: ReferenceView, region: DieselRegion) {
  const diesel = dieselPrice(view, DIESEL_REGIONS[region]);
  const seriesOf = (id: IndicatorId): string | undefined =>
    id === "diesel" ? diesel && dieselSeriesId(diesel.area) : MARKET_MODEL.indicators.value[id].seriesId;
  const readings = INDICATOR_IDS.flatMap((id) => {
    const seriesId = seriesOf(id);
    const reading = seriesId && readIndicator(view, id, seriesId);
    return reading ? [reading] : [];
  });
  return { readings, dieselFallback: diesel && dieselFallbackReason(diesel) };
}

function indicatorOut(reading: IndicatorReading, contribution: number | undefined): Output["indicators"][number] {
  const { spec, trend, zScore } = reading;
  return {
    id: reading.id,
    name: spec.name,
    series_id: reading.seriesId,
    unit: spec.unit,
    frequency: spec.frequency,
    latest: { value: reading.latest.value, date: reading.latest.observedOn },
    age_days: reading.ageDays,
    fresh: reading.fresh,
    trend: trend
      ? {
          lookback_months: MARKET_MODEL.trendLookbackMonths.value,
          from_date: trend.from.observedOn,
          from_value: trend.from.value,
          change: round(trend.absolute, 4),
          change_percent: trend.percent === undefined ? null : round(trend.percent, 2),
        }
      : null,
    z_score: zScore
      ? {
          value: round(zScore.value, 2),
          mean: round(zScore.mean, 4),
          standard_deviation: round(zScore.standardDeviation, 4),
          observations: zScore.observations,
          window_start: zScore.windowStart,
        }
      : null,
    weight: spec.weight,
    rise_means: spec.polarity > 0 ? "TIGHTENING" : "LOOSENING",
    signal: reading.signal === undefined ? null : round(reading.signal, 3),
    contribution: contribution === undefined ? null : round(contribution, 3),
    rationale: spec.rationale,
  };
}

export const marketAnalysisSkill = defineSkill({
  name: "market-analysis",
  minimumTier: "starter",
  description:
    "Truck-market indicators (EIA diesel, PPI truck freight, freight TSI, WTI, fed funds, industrial production, truck employment), " +
    "each with its latest value, 3-month trend and z-score, combined into a TIGHTENING / BALANCED / LOOSENING signal with reasons.",
  rest: { method: "POST", path: "/v1/market/analysis" },
  input: marketAnalysisInput,
  output: marketAnalysisOutput,
  replayable: true,
  asOf: (input) => input.as_of,
  handler(input, { data: today }) {
    const region = input.region ?? "NATIONAL";
    const { view, readings, dieselFallback, signal } = newestReadableMonth(today, region, input.as_of === undefined);
    if (readings.length === 0) throw beforeData("market indicator", today.asOf);

    const answer: Output = {
      as_of: today.asOf,
      ...(view !== today && { signal_as_of: view.asOf }),
      region,
      signal: {
        value: signal.value,
        score: signal.score === undefined ? null : round(signal.score, 3),
        coverage: round(signal.coverage, 3),
        threshold: MARKET_MODEL.signal.value.threshold,
        reasons: signal.reasons,
        method: MARKET_MODEL.signal.source,
      },
      indicators: readings.map((reading) => indicatorOut(reading, signal.contributions.get(reading.id))),
      ...(dieselFallback && { diesel_fallback: dieselFallback }),
      factor_versions: distinctFactors(readings.flatMap((reading) => reading.used)),
      model_version: MARKET_MODEL.version,
    };
    return { answer, factorVersions: answer.factor_versions, modelVersion: MARKET_MODEL.version };
  },
});
