/**
 * Lanes the equipment ratios and the length-of-haul curve are measured on (docs/rate-model.md, "Fidelity"), written
 * down before the 2026.11.8 constants were chosen: long hauls between the big dry-van freight markets, and short
 * hauls between neighbouring metros. A short lane counts only when its road miles fall in 120-300.
 */
export const LONG_HAUL_LANES: readonly (readonly [string, string])[] = [
  ["Chicago, IL", "Dallas, TX"],
  ["Atlanta, GA", "Chicago, IL"],
  ["Los Angeles, CA", "Dallas, TX"],
  ["Los Angeles, CA", "Chicago, IL"],
  ["Dallas, TX", "Atlanta, GA"],
  ["Houston, TX", "Atlanta, GA"],
  ["Chicago, IL", "Denver, CO"],
  ["Columbus, OH", "Dallas, TX"],
  ["Memphis, TN", "Los Angeles, CA"],
  ["Philadelphia, PA", "Chicago, IL"],
  ["New York, NY", "Atlanta, GA"],
  ["Seattle, WA", "Los Angeles, CA"],
  ["Phoenix, AZ", "Chicago, IL"],
  ["Kansas City, MO", "Atlanta, GA"],
  ["Indianapolis, IN", "Houston, TX"],
  ["Charlotte, NC", "Dallas, TX"],
  ["Jacksonville, FL", "Chicago, IL"],
  ["Salt Lake City, UT", "Chicago, IL"],
  ["Minneapolis, MN", "Dallas, TX"],
  ["Boston, MA", "Chicago, IL"],
];

export const SHORT_HAUL_LANES: readonly (readonly [string, string])[] = [
  ["Chicago, IL", "Indianapolis, IN"],
  ["Atlanta, GA", "Charlotte, NC"],
  ["Dallas, TX", "Houston, TX"],
  ["Los Angeles, CA", "San Diego, CA"],
  ["Dallas, TX", "Oklahoma City, OK"],
  ["Chicago, IL", "Detroit, MI"],
  ["New York, NY", "Boston, MA"],
  ["Houston, TX", "San Antonio, TX"],
  ["Atlanta, GA", "Birmingham, AL"],
  ["Nashville, TN", "Memphis, TN"],
  ["Seattle, WA", "Portland, OR"],
  ["Baltimore, MD", "New York, NY"],
  ["Charlotte, NC", "Raleigh, NC"],
  ["Indianapolis, IN", "Columbus, OH"],
  ["Kansas City, MO", "St. Louis, MO"],
  ["Memphis, TN", "Little Rock, AR"],
  ["Jacksonville, FL", "Savannah, GA"],
  ["Dallas, TX", "Austin, TX"],
];

/** DAT national averages, USD per loaded mile, 2025-09 (DAT release 2025-10-15; docs/rate-model.md, "Fidelity"). */
export const DAT_2025_09 = {
  asOf: "2025-09-15",
  contract: { DRY_VAN: 2.42, REEFER: 2.76, FLATBED: 3.06 },
  spot: { DRY_VAN: 2.05, REEFER: 2.44, FLATBED: 2.5 },
  source: "DAT national averages for September 2025 (DAT release 2025-10-15), contract rates including fuel",
} as const;
