import { RATE_MODEL } from "../rate-lookup/index.ts";

/**
 * The rate-forecast skill's constants: one versioned table, each figure with why it was chosen.
 * The rate itself comes from the rate-lookup cost model, so the version names both.
 */
export const RATE_FORECAST_MODEL = {
  version: `rate-forecast-2026.11.3+${RATE_MODEL.version}`,

  method: {
    value: "RANDOM_WALK_EMPIRICAL_H_STEP_SEASONAL_WITH_COST_TRENDS",
    source:
      "Every cost line the skill has a history for is projected (docs/rate-model.md, 'Forecast'). Diesel: the lane's weekly price " +
      "(rate-lookup's: the mean of the origin's and destination's EIA areas) is a random walk in logs without drift, moved by its " +
      "seasonal shape (the median over the last 8 years of the same weeks' log change, each year's own trend taken off); the interval " +
      "h weeks ahead is that times exp(q), q a quantile of every h-week log change in the trailing window less their median. Whole " +
      "h-week changes keep the momentum of real diesel moves and their skew. The driver wage grows at the national OEWS median's rate " +
      "between its two newest editions, the equipment cost at the heavy-truck PPI's change over its newest 12 months (the index that " +
      "carries ATRI's equipment cost), each only by the releases that fall due within the horizon (an OEWS edition a year after the " +
      "last, a PPI month a month after the last), since the cost model reads published levels. Each diesel quantile goes through the cost model with the projected wage and equipment; the rate " +
      "rises with diesel, so the results are the rate's quantiles. The no-change forecast is the standard hard-to-beat benchmark for " +
      "fuel prices (Alquist, Kilian and Vigfusson 2013): the backtest scores it beside the method.",
  },

  seasonality: {
    value: { years: 8, minimumYears: 3, minimumAgreement: 0.8 },
    source:
      "Eight years of the same calendar weeks, at least three with prices, so one year's shock (2022) does not make the season; fewer " +
      "than three years of history: no seasonal move. The move is used only when at least 80 % of those years moved the way their " +
      "median did (7 of 8, 4 of 5, 3 of 3: a one-sided sign test near 5 %); otherwise that horizon holds diesel's season flat. " +
      "Chosen on the fidelity backtest (docs/rate-model.md, 'Forecast').",
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
      "80% and 95% intervals held the outcome. The outcome is the rate with that week's diesel and the wage and equipment levels " +
      "published by then (the national OEWS median and the heavy-truck PPI standing for the lane's); each forecast projects them from " +
      "what was published by its origin. The naive forecast (the rate at the origin, carried flat) is scored on the same outcomes.",
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
