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

const OEWS_TRUCK_DRIVERS = "000000" + "533032"; // cross-industry, SOC 53-3032
const OEWS_TRUCK_DRIVERS_HOURLY_MEDIAN = `${OEWS_TRUCK_DRIVERS}08`;

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

/**
 * FMCSA Company Census aggregates, written by `waybill data import fmcsa` (docs/carrier-capacity.md):
 * for-hire carriers, their power units and drivers by physical state and FMCSA `CARRIER_OPERATION`
 * code (A interstate, B intrastate hazmat, C intrastate non-hazmat), dated by the census snapshot.
 */
export const CARRIER_OPERATIONS = ["A", "B", "C"] as const;
export type CarrierOperation = (typeof CARRIER_OPERATIONS)[number];
export const CENSUS_MEASURES = ["CARRIERS", "POWER_UNITS", "DRIVERS"] as const;
export type CensusMeasure = (typeof CENSUS_MEASURES)[number];

export const fmcsaCensusSeries = (measure: CensusMeasure, state: string, operation: CarrierOperation): string =>
  `FMCSA_CENSUS_${measure}_${state}_${operation}`;

/** OEWS 53-3032 employment (datatype 01), national and by state, beside the hourly median wage above. */
export const NATIONAL_TRUCK_DRIVER_EMPLOYMENT_SERIES = `OEUN0000000${OEWS_TRUCK_DRIVERS}01`;
export const stateTruckDriverEmploymentSeries = (stateFips: string): string =>
  `OEUS${stateFips.padStart(2, "0")}00000${OEWS_TRUCK_DRIVERS}01`;

/** Monthly national FMCSA for-hire authority counts and new USDOT carriers by state (ids agreed with the data layer). */
export const FMCSA_AUTHORITY_SERIES = {
  newAuthorities: "FMCSA_NEW_FORHIRE_AUTHORITIES",
  netRevocations: "FMCSA_NET_REVOCATIONS",
  netChange: "FMCSA_NET_CHANGE_CARRIERS",
} as const;
export const fmcsaNewCarriersSeries = (state: string): string => `FMCSA_NEW_CARRIERS_${state}`;

export const CASS_SHIPMENTS_SERIES = "CASS_SHIPMENTS_INDEX";
export const ATA_TONNAGE_SA_SERIES = "ATA_TONNAGE_SA";
