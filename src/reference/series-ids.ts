/**
 * Official series identifiers, and how the project names series that have no single official id.
 *
 * - EIA weekly retail on-highway diesel: `EMD_EPD2D_PTE_<area>_DPG` (EIA's own ids).
 * - BLS OEWS, SOC 53-3032 heavy and tractor-trailer truck drivers, hourly median wage: the BLS OEWS
 *   series id `OEU` + area type (N national, S state) + 7-digit area (state FIPS + 00000) +
 *   6-digit industry (000000 = cross-industry) + occupation 533032 + datatype 08 (hourly median).
 * - BLS CES, FRED: their own ids (CES4348400001, WPU301, TSIFRGHT, DCOILWTICO, FEDFUNDS, INDPRO).
 * - FHWA table MF-121T state diesel excise (cents/gal): `FHWA_MF121T_DIESEL_<ST>`, federal `..._US_FEDERAL`.
 * - USDA AMS reefer truck rates ($/mile) per lane: `AMS_REEFER_RPM_<ORIGIN ST>_<DESTINATION CITY>_<ST>`,
 *   see importers/ams.ts.
 */

export const DIESEL_AREAS = ["NUS", "R10", "R1X", "R1Y", "R1Z", "R20", "R30", "R40", "R50", "SCA", "R5XCA"] as const;
export type DieselArea = (typeof DIESEL_AREAS)[number];

export const dieselSeriesId = (area: DieselArea): string => `EMD_EPD2D_PTE_${area}_DPG`;

const OEWS_TRUCK_DRIVERS_HOURLY_MEDIAN = "000000" + "533032" + "08";

export const NATIONAL_TRUCK_DRIVER_WAGE_SERIES = `OEUN0000000${OEWS_TRUCK_DRIVERS_HOURLY_MEDIAN}`;

export const stateTruckDriverWageSeries = (stateFips: string): string =>
  `OEUS${stateFips.padStart(2, "0")}00000${OEWS_TRUCK_DRIVERS_HOURLY_MEDIAN}`;

export const FEDERAL_DIESEL_EXCISE_SERIES = "FHWA_MF121T_DIESEL_US_FEDERAL";
export const stateDieselExciseSeries = (state: string): string => `FHWA_MF121T_DIESEL_${state}`;

export const AMS_REEFER_PREFIX = "AMS_REEFER_RPM_";

/** A lane key that survives spelling differences: upper-case letters only, words joined by '-'. */
export function amsReeferLaneSeries(originState: string, destinationCity: string, destinationState: string): string {
  const city = destinationCity
    .toUpperCase()
    .replace(/[^A-Z]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${AMS_REEFER_PREFIX}${originState}_${city}_${destinationState}`;
}

/** Upper-case letters and digits, every run of anything else turned into '-'. */
const amsPart = (text: string): string =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** USDA AMS FVWTRK reefer truck rate, USD per load, for a shipping district and destination city (low or high end of the range). */
export const amsFvwtrkSeries = (kind: "LOW" | "HIGH", district: string, destination: string): string =>
  `AMS_FVWTRK_REEFER_${kind}_${amsPart(district)}__${amsPart(destination)}`;
