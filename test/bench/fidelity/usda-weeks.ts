/**
 * The USDA AMS FVWTRK weeks the per-load cost is fitted on and judged by (docs/rate-model.md, "Per-load cost").
 * Fit: the first three report weeks; held out: the last three, never looked at while choosing constants.
 * Each district is priced from one town inside it (the report prices the district, not a town).
 */
export const FIT_WEEKS = ["2026-04-29", "2026-06-30", "2026-07-07"];
export const HELD_OUT_WEEKS = ["2026-07-14", "2026-07-21", "2026-07-28"];

export const DISTRICT_TOWNS: Record<string, string> = {
  "YAKIMA VALLEY AND WENATCHEE DISTRICT WASHINGTON": "Yakima, WA",
  "SOUTH AND CENTRAL DISTRICT CALIFORNIA": "Fresno, CA",
  "KERN DISTRICT CALIFORNIA": "Bakersfield, CA",
  "SALINAS-WATSONVILLE CALIFORNIA": "Salinas, CA",
  "SANTA MARIA CALIFORNIA": "Santa Maria, CA",
  "OXNARD DISTRICT CALIFORNIA": "Oxnard, CA",
  "IMPERIAL, COACHELLA VALLEYS CA, CENTRAL AND WESTERN AZ, MEXICO CROSSINGS THROUGH CALEXICO AND SAN LUIS":
    "El Centro, CA",
  "MEXICO CROSSINGS THROUGH NOGALES ARIZONA": "Nogales, AZ",
  "MEXICO CROSSINGS THROUGH SOUTH TEXAS": "McAllen, TX",
  "VIDALIA DISTRICT GEORGIA": "Vidalia, GA",
  GEORGIA: "Tifton, GA",
  "SAN LUIS VALLEY COLORADO": "Alamosa, CO",
};

export const DESTINATION_PLACES: Record<string, string> = {
  Atlanta: "Atlanta, GA",
  Baltimore: "Baltimore, MD",
  Boston: "Boston, MA",
  Chicago: "Chicago, IL",
  Dallas: "Dallas, TX",
  "Los Angeles": "Los Angeles, CA",
  Miami: "Miami, FL",
  "New York": "New York, NY",
  Philadelphia: "Philadelphia, PA",
  Seattle: "Seattle, WA",
};
