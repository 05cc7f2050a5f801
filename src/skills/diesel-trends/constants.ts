/**
 * The diesel-trends skill's constants: one versioned table. Changing a value means a new `version`;
 * receipts name it as `model_version`.
 */

export const DIESEL_TRENDS_MODEL = {
  version: "diesel-trends-2026.11.1",

  windowWeeks: {
    value: { default: 52, min: 4, max: 260 },
    source: "docs/api.md (Skills): a year by default; at least one month, at most five years of weekly EIA prices.",
  },

  changeHorizonsWeeks: {
    value: [1, 4, 13, 52],
    source:
      "docs/api.md (Skills): week, month, quarter and year over year, each against the EIA week on or before that many weeks earlier.",
  },

  // The answer names them moving_averages.weeks_4 and weeks_13.
  movingAverageWeeks: {
    value: { short: 4, long: 13 },
    source:
      "A month and a quarter of weekly prices, the horizons fuel-surcharge tariffs and fleet budgets are reviewed on.",
  },

  direction: {
    value: { thresholdPercent: 1 },
    source:
      "Waybill product decision: RISING when the 4-week moving average is more than 1% above the 13-week one, FALLING when more " +
      "than 1% below, else FLAT. 1% is about 4 cents at $4/gal: above week-to-week survey noise (moves of a cent or two), " +
      "below the 3-5% monthly swings of a real trend.",
  },
} as const;

export const TREND_DIRECTIONS = ["RISING", "FALLING", "FLAT", "INSUFFICIENT_DATA"] as const;
export type TrendDirection = (typeof TREND_DIRECTIONS)[number];
