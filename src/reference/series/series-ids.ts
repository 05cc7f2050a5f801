/**
 * Official series identifiers, and how the project names series that have no single official id.
 *
 * - EIA weekly retail on-highway diesel: `EMD_EPD2D_PTE_<area>_DPG` (EIA's own ids).
 * - BLS OEWS, SOC 53-3032 heavy and tractor-trailer truck drivers, hourly median wage: the BLS OEWS
 *   series id `OEU` + area type (N national, S state) + 7-digit area (state FIPS + 00000) +
 *   6-digit industry (000000 = cross-industry) + occupation 533032 + datatype 08 (hourly median).
 * - BLS CES, FRED: their own ids (CES4348400001, WPU301, PCU336120336120, TSIFRGHT, DCOILWTICO, FEDFUNDS, INDPRO).
 * - FHWA table MF-121T state diesel excise (cents/gal): `FHWA_MF121T_DIESEL_<ST>`, federal `..._US_FEDERAL`.
 * - USDA AMS FVWTRK reefer truck rates (USD per load, dated by report date), the low and high end of
 *   the printed range per shipping district and destination city:
 *   `AMS_FVWTRK_REEFER_LOW_<DISTRICT>__<DESTINATION>` / `AMS_FVWTRK_REEFER_HIGH_<DISTRICT>__<DESTINATION>`.
 * - Cass Freight Index: `CASS_SHIPMENTS_INDEX`, `CASS_EXPENDITURES_INDEX`, `CASS_TL_LINEHAUL_INDEX` (monthly).
 * - ATA truck tonnage index (2015=100): `ATA_TONNAGE_SA`, `ATA_TONNAGE_NSA` (monthly).
 * - FMCSA for-hire authority counts (monthly): `FMCSA_NEW_FORHIRE_AUTHORITIES`, `FMCSA_NET_REVOCATIONS`,
 *   `FMCSA_NET_CHANGE_CARRIERS`; new carriers (USDOT registrations) by state `FMCSA_NEW_CARRIERS_<ST>`,
 *   new operating authorities by state `FMCSA_NEW_AUTHORITIES_<ST>`.
 * docs/data-sources.md lists every series with its unit, cadence and publication rule.
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

export const AMS_FVWTRK_PREFIX = "AMS_FVWTRK_REEFER_";
export type AmsRangeEnd = "LOW" | "HIGH";

/** One part of an AMS series id: upper-case letters and digits, any run of other characters turned into '-'. */
export const amsIdPart = (text: string): string =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** The series of one end of USDA's printed $/load range for a shipping district and destination city. */
export const amsFvwtrkSeries = (kind: AmsRangeEnd, district: string, destination: string): string =>
  `${AMS_FVWTRK_PREFIX}${kind}_${amsIdPart(district)}__${amsIdPart(destination)}`;

/** The parts of an AMS FVWTRK series id, or undefined for any other id. */
export function parseAmsFvwtrkSeries(
  seriesId: string,
): { kind: AmsRangeEnd; district: string; destination: string } | undefined {
  const [, kind, district, destination] =
    /^AMS_FVWTRK_REEFER_(LOW|HIGH)_([A-Z0-9-]+)__([A-Z0-9-]+)$/.exec(seriesId) ?? [];
  return kind && district && destination ? { kind: kind as AmsRangeEnd, district, destination } : undefined;
}

export const CASS_SHIPMENTS_INDEX = "CASS_SHIPMENTS_INDEX";
export const CASS_EXPENDITURES_INDEX = "CASS_EXPENDITURES_INDEX";
export const CASS_TL_LINEHAUL_INDEX = "CASS_TL_LINEHAUL_INDEX";
export const ATA_TONNAGE_SA = "ATA_TONNAGE_SA";
export const ATA_TONNAGE_NSA = "ATA_TONNAGE_NSA";
export const FMCSA_NEW_FORHIRE_AUTHORITIES = "FMCSA_NEW_FORHIRE_AUTHORITIES";
export const FMCSA_NET_REVOCATIONS = "FMCSA_NET_REVOCATIONS";
export const FMCSA_NET_CHANGE_CARRIERS = "FMCSA_NET_CHANGE_CARRIERS";
export const fmcsaNewCarriersSeries = (state: string): string => `FMCSA_NEW_CARRIERS_${state}`;
/** New MC operating authorities granted in a state: a different measure from new USDOT registrations. */
export const fmcsaNewAuthoritiesSeries = (state: string): string => `FMCSA_NEW_AUTHORITIES_${state}`;

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
