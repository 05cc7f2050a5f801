import { changeSince, shiftDate, zScore, type Change, type ZScore } from "../../reference/series/series-stats.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import { MARKET_MODEL, type IndicatorId, type IndicatorSpec } from "./constants.ts";
import { daysBetween } from "../../dates.ts";

export interface IndicatorReading {
  id: IndicatorId;
  spec: IndicatorSpec;
  seriesId: string;
  latest: Observation;
  ageDays: number;
  /** Recent enough to count in the signal (MARKET_MODEL.maxAgeDays). */
  fresh: boolean;
  trend: Change | undefined;
  /** The trend in the indicator's own measure: percent, or points. */
  trendValue: number | undefined;
  zScore: (ZScore & { windowStart: string }) | undefined;
  /** The trend scaled to [-1, 1] and turned so that +1 means tightening; undefined without a trend. */
  signal: number | undefined;
  used: Observation[];
}

const clamp = (value: number) => Math.max(-1, Math.min(1, value));

/** One indicator as of the view: latest, trend over the lookback, z-score against its trailing years, and its signal. */
export function readIndicator(view: ReferenceView, id: IndicatorId, seriesId: string): IndicatorReading | undefined {
  const spec: IndicatorSpec = MARKET_MODEL.indicators.value[id];
  const latest = view.latest(seriesId);
  if (!latest) return undefined;
  const { years, minObservations } = MARKET_MODEL.zScoreWindow.value;
  const windowStart = shiftDate(latest.observedOn, { months: -12 * years });
  // The z-score window reaches further back than the trend's base, so one history serves both.
  const history = view.history(seriesId, windowStart);

  const trend = changeSince(
    history,
    latest,
    shiftDate(latest.observedOn, { months: -MARKET_MODEL.trendLookbackMonths.value }),
  );
  const trendValue = spec.trendMeasure === "percent" ? trend?.percent : trend?.absolute;
  const earlier = history.filter((observation) => observation.observedOn < latest.observedOn);
  const score =
    earlier.length >= minObservations
      ? zScore(
          latest.value,
          earlier.map((o) => o.value),
        )
      : undefined;
  const ageDays = daysBetween(latest.observedOn, view.asOf);

  return {
    id,
    spec,
    seriesId,
    latest,
    ageDays,
    fresh: ageDays <= MARKET_MODEL.maxAgeDays.value[spec.frequency],
    trend,
    trendValue,
    zScore: score && { ...score, windowStart },
    signal: trendValue === undefined ? undefined : clamp(trendValue / spec.fullSignalAt) * spec.polarity,
    used: score ? [latest, ...earlier] : [latest, ...(trend ? [trend.from] : [])],
  };
}
