import type { DieselArea } from "../series/series-ids.ts";

/**
 * US states: postal code, FIPS code, name, and the EIA diesel price area each state belongs to.
 * PADD membership follows EIA's definitions of Petroleum Administration for Defense Districts;
 * California is its own EIA series, the rest of PADD 5 is "West Coast except California".
 */
interface StateInfo {
  fips: string;
  name: string;
  dieselArea: DieselArea;
}

const STATES = {
  AL: { fips: "01", name: "Alabama", dieselArea: "R30" },
  AK: { fips: "02", name: "Alaska", dieselArea: "R5XCA" },
  AZ: { fips: "04", name: "Arizona", dieselArea: "R5XCA" },
  AR: { fips: "05", name: "Arkansas", dieselArea: "R30" },
  CA: { fips: "06", name: "California", dieselArea: "SCA" },
  CO: { fips: "08", name: "Colorado", dieselArea: "R40" },
  CT: { fips: "09", name: "Connecticut", dieselArea: "R1X" },
  DE: { fips: "10", name: "Delaware", dieselArea: "R1Y" },
  DC: { fips: "11", name: "District of Columbia", dieselArea: "R1Y" },
  FL: { fips: "12", name: "Florida", dieselArea: "R1Z" },
  GA: { fips: "13", name: "Georgia", dieselArea: "R1Z" },
  HI: { fips: "15", name: "Hawaii", dieselArea: "R5XCA" },
  ID: { fips: "16", name: "Idaho", dieselArea: "R40" },
  IL: { fips: "17", name: "Illinois", dieselArea: "R20" },
  IN: { fips: "18", name: "Indiana", dieselArea: "R20" },
  IA: { fips: "19", name: "Iowa", dieselArea: "R20" },
  KS: { fips: "20", name: "Kansas", dieselArea: "R20" },
  KY: { fips: "21", name: "Kentucky", dieselArea: "R20" },
  LA: { fips: "22", name: "Louisiana", dieselArea: "R30" },
  ME: { fips: "23", name: "Maine", dieselArea: "R1X" },
  MD: { fips: "24", name: "Maryland", dieselArea: "R1Y" },
  MA: { fips: "25", name: "Massachusetts", dieselArea: "R1X" },
  MI: { fips: "26", name: "Michigan", dieselArea: "R20" },
  MN: { fips: "27", name: "Minnesota", dieselArea: "R20" },
  MS: { fips: "28", name: "Mississippi", dieselArea: "R30" },
  MO: { fips: "29", name: "Missouri", dieselArea: "R20" },
  MT: { fips: "30", name: "Montana", dieselArea: "R40" },
  NE: { fips: "31", name: "Nebraska", dieselArea: "R20" },
  NV: { fips: "32", name: "Nevada", dieselArea: "R5XCA" },
  NH: { fips: "33", name: "New Hampshire", dieselArea: "R1X" },
  NJ: { fips: "34", name: "New Jersey", dieselArea: "R1Y" },
  NM: { fips: "35", name: "New Mexico", dieselArea: "R30" },
  NY: { fips: "36", name: "New York", dieselArea: "R1Y" },
  NC: { fips: "37", name: "North Carolina", dieselArea: "R1Z" },
  ND: { fips: "38", name: "North Dakota", dieselArea: "R20" },
  OH: { fips: "39", name: "Ohio", dieselArea: "R20" },
  OK: { fips: "40", name: "Oklahoma", dieselArea: "R20" },
  OR: { fips: "41", name: "Oregon", dieselArea: "R5XCA" },
  PA: { fips: "42", name: "Pennsylvania", dieselArea: "R1Y" },
  RI: { fips: "44", name: "Rhode Island", dieselArea: "R1X" },
  SC: { fips: "45", name: "South Carolina", dieselArea: "R1Z" },
  SD: { fips: "46", name: "South Dakota", dieselArea: "R20" },
  TN: { fips: "47", name: "Tennessee", dieselArea: "R20" },
  TX: { fips: "48", name: "Texas", dieselArea: "R30" },
  UT: { fips: "49", name: "Utah", dieselArea: "R40" },
  VT: { fips: "50", name: "Vermont", dieselArea: "R1X" },
  VA: { fips: "51", name: "Virginia", dieselArea: "R1Z" },
  WA: { fips: "53", name: "Washington", dieselArea: "R5XCA" },
  WV: { fips: "54", name: "West Virginia", dieselArea: "R1Z" },
  WI: { fips: "55", name: "Wisconsin", dieselArea: "R20" },
  WY: { fips: "56", name: "Wyoming", dieselArea: "R40" },
} as const satisfies Record<string, StateInfo>;

export type StateCode = keyof typeof STATES;
export const STATE_CODES = Object.keys(STATES) as StateCode[];

export function isStateCode(value: string): value is StateCode {
  return Object.hasOwn(STATES, value);
}

export const stateInfo = (state: StateCode): StateInfo => STATES[state];

const STATE_BY_NAME = new Map(STATE_CODES.map((code) => [STATES[code].name.toLowerCase(), code]));
export const stateByName = (name: string): StateCode | undefined => STATE_BY_NAME.get(name.toLowerCase());

/** The EIA area a diesel price for this area falls back to, ending at the U.S. average. */
const PARENT_AREA: Record<DieselArea, DieselArea | undefined> = {
  NUS: undefined,
  R10: "NUS",
  R1X: "R10",
  R1Y: "R10",
  R1Z: "R10",
  R20: "NUS",
  R30: "NUS",
  R40: "NUS",
  R50: "NUS",
  SCA: "R50",
  R5XCA: "R50",
};
export const parentDieselArea = (area: DieselArea): DieselArea | undefined => PARENT_AREA[area];

export const DIESEL_AREA_NAMES: Record<DieselArea, string> = {
  NUS: "U.S.",
  R10: "East Coast (PADD 1)",
  R1X: "New England (PADD 1A)",
  R1Y: "Central Atlantic (PADD 1B)",
  R1Z: "Lower Atlantic (PADD 1C)",
  R20: "Midwest (PADD 2)",
  R30: "Gulf Coast (PADD 3)",
  R40: "Rocky Mountain (PADD 4)",
  R50: "West Coast (PADD 5)",
  SCA: "California",
  R5XCA: "West Coast except California",
};

/** The PADD label a place reports, e.g. "1B", "2", "5". California and PADD 5 ex-CA are both PADD 5. */
export const PADD_LABEL: Record<DieselArea, string> = {
  NUS: "US",
  R10: "1",
  R1X: "1A",
  R1Y: "1B",
  R1Z: "1C",
  R20: "2",
  R30: "3",
  R40: "4",
  R50: "5",
  SCA: "5",
  R5XCA: "5",
};

/**
 * Region names callers use for EIA diesel areas (fuel-surcharge, diesel-trends, market-analysis):
 * NATIONAL, the five PADDs, PADD 1's three sub-districts, and PADD 5 split into California and the rest.
 */
export const DIESEL_REGIONS = {
  NATIONAL: "NUS",
  PADD1: "R10",
  PADD1A: "R1X",
  PADD1B: "R1Y",
  PADD1C: "R1Z",
  PADD2: "R20",
  PADD3: "R30",
  PADD4: "R40",
  PADD5: "R50",
  CALIFORNIA: "SCA",
  PADD5_EX_CA: "R5XCA",
} as const satisfies Record<string, DieselArea>;

export type DieselRegion = keyof typeof DIESEL_REGIONS;
export const DIESEL_REGION_NAMES = Object.keys(DIESEL_REGIONS) as [DieselRegion, ...DieselRegion[]];

const REGION_OF_AREA = new Map(DIESEL_REGION_NAMES.map((region) => [DIESEL_REGIONS[region] as DieselArea, region]));
export function dieselRegionOf(area: DieselArea): DieselRegion {
  const region = REGION_OF_AREA.get(area);
  if (!region) throw new Error(`EIA diesel area ${area} has no region name in DIESEL_REGIONS`);
  return region;
}
