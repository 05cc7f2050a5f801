import { DIESEL_AREA_NAMES, isStateCode, STATE_CODES, stateInfo } from "../geo/regions.ts";
import { DIESEL_AREAS, dieselSeriesId, parseAmsFvwtrkSeries } from "./series-ids.ts";

const FIXED: Record<string, string> = {
  CES4348400001: "BLS CES all employees, truck transportation (NAICS 484), seasonally adjusted",
  WPU301: "BLS PPI truck transportation of freight",
  PCU336120336120: "BLS PPI by industry, heavy duty truck manufacturing",
  TSIFRGHT: "BTS Freight Transportation Services Index, SA",
  FEDFUNDS: "Effective federal funds rate",
  INDPRO: "Industrial production index, SA",
  DCOILWTICO: "WTI crude oil spot price, Cushing OK, daily",
  CASS_SHIPMENTS_INDEX: "Cass Freight Index, shipments",
  CASS_EXPENDITURES_INDEX: "Cass Freight Index, expenditures",
  CASS_TL_LINEHAUL_INDEX: "Cass Truckload Linehaul Index",
  ATA_TONNAGE_SA: "ATA for-hire truck tonnage index, seasonally adjusted",
  ATA_TONNAGE_NSA: "ATA for-hire truck tonnage index, not seasonally adjusted",
  FMCSA_NEW_FORHIRE_AUTHORITIES: "New for-hire operating authorities granted (FTR from FMCSA L&I)",
  FMCSA_NET_REVOCATIONS: "For-hire authority revocations net of reinstatements (FTR from FMCSA L&I)",
  FMCSA_NET_CHANGE_CARRIERS: "Net change in for-hire carriers (FTR from FMCSA L&I)",
  FHWA_MF121T_DIESEL_US_FEDERAL: "Federal diesel excise tax",
  OEUN000000000000053303208: "BLS OEWS heavy and tractor-trailer truck drivers (53-3032), hourly median wage, U.S.",
};
for (const area of DIESEL_AREAS) {
  FIXED[dieselSeriesId(area)] =
    area === "NUS"
      ? "EIA weekly U.S. retail on-highway No. 2 diesel price"
      : `EIA weekly retail on-highway No. 2 diesel price, ${DIESEL_AREA_NAMES[area]}`;
}
const stateName = (code: string) => (isStateCode(code) ? stateInfo(code).name : code);
const FIPS_STATE = new Map(STATE_CODES.map((code) => [stateInfo(code).fips, code]));

const stateOfFips = (fips: string) => stateName(FIPS_STATE.get(fips) ?? fips);

/** Titles of the families of series whose ids carry a state or a measure. */
const PATTERN_TITLES: [RegExp, (group: (n: number) => string) => string][] = [
  [
    /^OEUS(\d{2})\d+01$/,
    (group) => `BLS OEWS heavy and tractor-trailer truck drivers (53-3032), employment, ${stateOfFips(group(1))}`,
  ],
  [
    /^OEUS(\d{2})/,
    (group) =>
      `BLS OEWS heavy and tractor-trailer truck drivers (53-3032), hourly median wage, ${stateOfFips(group(1))}`,
  ],
  [/^FHWA_MF121T_DIESEL_([A-Z]{2})$/, (group) => `State diesel excise tax, ${group(1)}`],
  [/^FMCSA_NEW_CARRIERS_([A-Z]{2})$/, (group) => `New carriers (USDOT registrations), ${stateName(group(1))}`],
  [/^FMCSA_NEW_AUTHORITIES_([A-Z]{2})$/, (group) => `New MC operating authorities granted, ${stateName(group(1))}`],
  [
    /^FMCSA_CENSUS_(CARRIERS|POWER_UNITS|DRIVERS)_([A-Z]{2})_([ABC])$/,
    (group) =>
      `FMCSA census ${group(1).toLowerCase().replace("_", " ")}, ${stateName(group(2))}, operation ${group(3)}`,
  ],
];

/** A human title for a series id, for `data status` and the snapshot. */
export function seriesTitle(id: string): string {
  const fixed = FIXED[id];
  if (fixed) return fixed;
  const ams = parseAmsFvwtrkSeries(id);
  if (ams)
    return `USDA AMS FVWTRK reefer rate, ${ams.kind === "LOW" ? "low" : "high"} end, ${ams.district} to ${ams.destination}`;
  if (id === "OEUN000000000000053303201")
    return "BLS OEWS heavy and tractor-trailer truck drivers (53-3032), employment, U.S.";
  for (const [pattern, title] of PATTERN_TITLES) {
    const match = pattern.exec(id);
    if (match)
      return title((n) => {
        const part = match[n];
        if (part === undefined) throw new Error(`${pattern} has no group ${n}`);
        return part;
      });
  }
  return id;
}
