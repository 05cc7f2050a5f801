import { mean } from "../../reference/series/series-stats.ts";

export interface Delta {
  absolute: number;
  /** Relative to the reference figure, in percent. */
  percent: number;
}

export interface RankedFigure {
  /** Position in the request's list. */
  position: number;
  /** 1 for the cheapest; equal figures share a rank (1, 2, 2, 4). */
  rank: number;
  value: number;
  deltaVsCheapest: Delta;
  deltaVsMean: Delta;
}

export interface Ranking {
  /** Cheapest first; ties in request order. */
  ranked: RankedFigure[];
  cheapest: RankedFigure;
  mostExpensive: RankedFigure;
  mean: number;
}

const deltaFrom = (value: number, reference: number): Delta => ({
  absolute: value - reference,
  percent: ((value - reference) / reference) * 100,
});

/** Rank positive cost figures, cheapest first, with each one's distance from the cheapest and from the mean. */
export function rankCosts(values: readonly number[]): Ranking {
  const order = values
    .map((value, position) => ({ value, position }))
    .sort((a, b) => a.value - b.value || a.position - b.position);
  const [first] = order;
  if (!first) throw new Error("rankCosts needs at least one figure");
  const average = mean(values);
  const cheapest = first.value;
  const ranked = order.map(({ value, position }) => ({
    position,
    rank: 1 + order.filter((other) => other.value < value).length,
    value,
    deltaVsCheapest: deltaFrom(value, cheapest),
    deltaVsMean: deltaFrom(value, average),
  }));
  const [cheapestRanked] = ranked;
  const mostExpensive = ranked.at(-1);
  if (!cheapestRanked || !mostExpensive) throw new Error("ranked has one entry per figure, and there is one");
  return { ranked, cheapest: cheapestRanked, mostExpensive, mean: average };
}
