import { round } from "../kit.ts";
import { INDICATOR_IDS, MARKET_MODEL, type IndicatorId, type MarketSignal } from "./constants.ts";
import type { IndicatorReading } from "./indicator.ts";

export interface CompositeSignal {
  value: MarketSignal;
  /** Weighted mean of the counted indicators' signals, in [-1, 1]; undefined when too little is fresh. */
  score: number | undefined;
  /** Share of the total weight whose indicators counted. */
  coverage: number;
  reasons: string[];
  /** Each counted indicator's weight x signal. */
  contributions: Map<IndicatorId, number>;
}

/** A reading that counts in the signal: fresh, with a trend, and its weight x signal. */
interface CountedReading {
  reading: IndicatorReading;
  trendValue: number;
  contribution: number;
}

const describeTrend = ({ reading, trendValue: value }: CountedReading): string => {
  const months = MARKET_MODEL.trendLookbackMonths.value;
  const size =
    reading.spec.trendMeasure === "percent" ? `${Math.abs(round(value, 2))}%` : `${Math.abs(round(value, 2))} points`;
  return `${value >= 0 ? "up" : "down"} ${size} over ${months} months to ${reading.latest.value} (${reading.latest.observedOn})`;
};

const leaning = (contribution: number) =>
  contribution > 0 ? "toward tightening" : contribution < 0 ? "toward loosening" : "neutral";

/** Weighted mean of the fresh indicators' signals, the verdict it gives, and why, strongest reason first. */
export function compositeSignal(readings: readonly IndicatorReading[]): CompositeSignal {
  const { threshold, minCoverage } = MARKET_MODEL.signal.value;
  // A reading has a signal exactly when it has a trend (indicator.ts).
  const counted = readings.flatMap((reading): CountedReading[] => {
    const { fresh, signal, trendValue } = reading;
    if (!fresh || signal === undefined || trendValue === undefined) return [];
    return [{ reading, trendValue, contribution: reading.spec.weight * signal }];
  });
  const countedWeight = counted.reduce((sum, { reading }) => sum + reading.spec.weight, 0);
  const totalWeight = INDICATOR_IDS.reduce((sum, id) => sum + MARKET_MODEL.indicators.value[id].weight, 0);
  const coverage = countedWeight / totalWeight;
  const contributions = new Map(counted.map(({ reading, contribution }) => [reading.id, contribution]));

  const reasons = [...counted]
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
    .map((entry) => {
      const { reading, contribution } = entry;
      return `${reading.spec.name} ${describeTrend(entry)}: ${leaning(contribution)} (${contribution >= 0 ? "+" : ""}${round(contribution, 3)} of weight ${reading.spec.weight})`;
    });
  for (const id of INDICATOR_IDS) {
    const reading = readings.find((r) => r.id === id);
    const { name, frequency } = MARKET_MODEL.indicators.value[id];
    if (!reading) reasons.push(`${name} left out: no observation on or before as_of`);
    else if (!reading.fresh)
      reasons.push(
        `${name} left out: latest observation ${reading.latest.observedOn} is ${reading.ageDays} days old (limit ${MARKET_MODEL.maxAgeDays.value[frequency]})`,
      );
    else if (reading.signal === undefined)
      reasons.push(
        `${name} left out: no observation ${MARKET_MODEL.trendLookbackMonths.value} months before its latest`,
      );
  }

  if (coverage < minCoverage) {
    reasons.unshift(
      `Only ${round(coverage * 100, 0)}% of the indicators' weight is fresh (at least ${minCoverage * 100}% needed); import newer data.`,
    );
    return { value: "INSUFFICIENT_DATA", score: undefined, coverage, reasons, contributions };
  }
  const score = [...contributions.values()].reduce((sum, c) => sum + c, 0) / countedWeight;
  const value: MarketSignal = score > threshold ? "TIGHTENING" : score < -threshold ? "LOOSENING" : "BALANCED";
  return { value, score, coverage, reasons, contributions };
}
