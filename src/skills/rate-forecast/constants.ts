import { RATE_MODEL } from "../rate-lookup/index.ts";

/**
 * The rate-forecast skill's constants: one versioned table, each figure with why it was chosen.
 * The rate itself comes from the rate-lookup cost model, so the version names both.
 */
export const RATE_FORECAST_MODEL = {
  version: `rate-forecast-2026.11.1+${RATE_MODEL.version}`,

  method: {
    value: "RANDOM_WALK_EMPIRICAL_H_STEP",
    source:
      "Diesel is the only cost input that moves week to week, so only diesel is forecast; wages (annual survey) and ATRI equipment " +
      "costs (annual edition) are carried at their as-of values. The lane's weekly diesel price (rate-lookup's: the mean of the " +
      "origin's and destination's EIA areas) is a random walk in logs without drift: the median forecast is the last price, and the " +
      "interval h weeks ahead is the last price times exp(q), q a quantile of every h-week log change in the trailing window less " +
      "their median. Whole h-week changes keep the momentum of real diesel moves (weekly changes are positively autocorrelated, so " +
      "sqrt(h) scaling of one-week volatility would understate long horizons) and their skew. Each diesel quantile goes through the " +
      "cost model; the rate rises with diesel, so the results are the rate's quantiles. The no-change forecast is the standard " +
      "hard-to-beat benchmark for fuel prices (Alquist, Kilian and Vigfusson 2013); a drift taken from the window scored the same or " +
      "worse in this skill's backtest (4- and 8-week MAPE, Chicago-Dallas, five as_of dates 2020-2026).",
  },

  windowWeeks: {
    value: 156,
    source:
      "Three years of weekly prices: long enough for more than 100 overlapping changes at 26 weeks, short enough to reflect the current price regime.",
  },

  minimumChanges: {
    value: 52,
    source:
      "Fewer than a year of h-week changes makes the 2.5% and 97.5% quantiles guesswork; the forecast is refused rather than shown.",
  },

  quantiles: {
    value: { p2_5: 0.025, p10: 0.1, p50: 0.5, p90: 0.9, p97_5: 0.975 },
    source:
      "Central 80% (p10-p90) and 95% (p2.5-p97.5) intervals and the median; empirical quantiles interpolated between order statistics (type 7).",
  },

  widening: {
    value: "monotone",
    source:
      "A random walk's uncertainty never shrinks with the horizon; sampling noise in overlapping changes can make a longer horizon's " +
      "empirical interval narrower, so each side of each interval is at least as wide (in log terms around the median) as the previous week's.",
  },

  horizonWeeks: {
    value: { min: 1, max: 26, default: 8 },
    source: "docs/api.md (Skills): 1 to 26 weeks; 8 weeks covers a typical quarterly contract-rate review.",
  },

  backtest: {
    value: { spanWeeks: 104, everyWeeks: 4 },
    source:
      "The same forecast made from every 4th weekly observation over the two years before the newest one, each from only the data " +
      "before it, scored against what diesel did, passed through the same cost model: MAPE of rate_per_mile and how often the " +
      "80% and 95% intervals held the outcome. Labor and equipment are held, so this measures the diesel forecast's share of the error.",
  },

  factorListing: {
    value: "bounds",
    source:
      "Factor versions list rate-lookup's factors for the starting rate, plus each diesel series' first observation in the forecast " +
      "window and in the backtest's history. The observations between them are every stored week of that series; a view pinned to the " +
      "receipt's as_of and known_at returns exactly them, so listing several hundred weekly rows per receipt would add bulk, not provenance.",
  },
} as const;

export type QuantileName = keyof typeof RATE_FORECAST_MODEL.quantiles.value;
export const QUANTILE_NAMES = Object.keys(RATE_FORECAST_MODEL.quantiles.value) as QuantileName[];
export type Quantiles = Record<QuantileName, number>;
