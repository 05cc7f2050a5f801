/**
 * The rate-lookup cost model's constants: one versioned table, every figure with its source.
 * Changing any value means a new `version`; receipts name it as `model_version`.
 */

import type { StateCode } from "../../reference/geo/regions.ts";
import { ROAD_ROUTING_REVISION } from "../../reference/roads/index.ts";
import type { Equipment } from "../kit.ts";

export const MODES = ["FTL", "LTL", "INTERMODAL"] as const;
export type Mode = (typeof MODES)[number];

/** Freight markets the lane-balance factor is fitted for (docs/rate-model.md, "Lane balance"). */
export const FREIGHT_MARKETS = {
  PACIFIC_NORTHWEST: ["WA", "OR", "ID"],
  CALIFORNIA: ["CA"],
  DESERT_SOUTHWEST: ["AZ", "NV", "NM"],
  MOUNTAIN: ["CO", "UT", "WY"],
  TEXAS: ["TX"],
  UPPER_MIDWEST: ["IL", "IN", "WI"],
  SOUTHEAST: ["GA", "AL", "SC", "NC", "TN"],
  FLORIDA: ["FL"],
  NORTHEAST: ["MA", "RI", "NH", "CT", "NY", "NJ", "PA", "DE", "MD", "DC"],
} as const satisfies Record<string, readonly StateCode[]>;
export type FreightMarket = keyof typeof FREIGHT_MARKETS;

/** ATRI "An Analysis of the Operational Costs of Trucking": non-fuel, non-driver cost per mile. */
export interface AtriEdition {
  edition: number;
  dataYear: number;
  /** Approximate publication date; an answer as of an earlier date cannot use this edition. */
  publishedOn: string;
  /** Truck/trailer payments, repair and maintenance, insurance, permits, tires, tolls (USD/mile). */
  equipmentPerMile: number;
  /** ATRI's total marginal cost per mile, for checking the model against. */
  totalPerMile: number;
  fuelPerMile: number;
  driverPerMile: number;
}

export const RATE_MODEL = {
  // The routing rules price a lane's miles, so their revision is part of the model's (docs/rate-model.md, "Model version").
  version: `rate-lookup-2026.11.9+${ROAD_ROUTING_REVISION}`,

  fuelEconomyMpg: {
    value: { DRY_VAN: 6.9, REEFER: 6.33, FLATBED: 5.8 } satisfies Record<Equipment, number>,
    source:
      "Dry van 6.9 mpg: U.S. Class 8 average quoted by NACFE (2024 study). Reefer and flatbed scaled by DAT's fuel-surcharge ratios " +
      "(reefer 1.07-1.11x, flatbed 1.16-1.22x the van surcharge per mile, 2024-04..2025-09): 6.9/1.09 and 6.9/1.19.",
  },

  reeferUnitGallonsPerHour: {
    value: 0.75,
    source: "Trailer refrigeration units burn 0.5-1.0 gal/h (several operator guides; docs/data-sources.md); midpoint.",
  },

  averageDrivingSpeedMph: {
    value: 47.5,
    source:
      "Door-to-door planning speed 45-50 mph (FHWA Freight Facts: interstate truck speeds above 55 mph, slower near cities); midpoint.",
  },

  drivingShareOfPaidHours: {
    value: 11 / 14,
    source: "FMCSA hours of service: at most 11 driving hours in a 14-hour on-duty window; pay covers the window.",
  },

  driverBenefitsRatio: {
    value: 0.247,
    source: "ATRI 2025 edition (2024 data): driver benefits $0.197 per mile over driver wages $0.798 per mile.",
  },

  atriEditions: {
    value: [
      // 2017 data from a chart (HDT, August 2019): truck/trailer .26, R&M .17, insurance .08, permits .02, tires .04, tolls .03.
      {
        edition: 2018,
        dataYear: 2017,
        publishedOn: "2018-10-01",
        equipmentPerMile: 0.6,
        totalPerMile: 1.691,
        fuelPerMile: 0.34,
        driverPerMile: 0.73,
      },
      // 2020: total 1.646 (1.855 / 1.127, The Trucker), fuel .308 and driver compensation .737 (Minnesota Trucking Association and
      // USDA Grain Transportation Report 2021-12-09, quoting the 2021 update released 2021-11-23); equipment = non-fuel 1.338
      // (farmequip.org) minus .737, which the total minus fuel and driver confirms.
      {
        edition: 2021,
        dataYear: 2020,
        publishedOn: "2021-11-23",
        equipmentPerMile: 0.601,
        totalPerMile: 1.646,
        fuelPerMile: 0.308,
        driverPerMile: 0.737,
      },
      // 2021: non-fuel 1.438 (farmequip.org quoting the 2022 update) minus driver compensation .809 (The Trucker, 2022-08-12);
      // fuel = total 1.855 - non-fuel. Published by 2022-08-12 (the press report's date; ATRI's own release day not carried).
      {
        edition: 2022,
        dataYear: 2021,
        publishedOn: "2022-08-12",
        equipmentPerMile: 0.629,
        totalPerMile: 1.855,
        fuelPerMile: 0.417,
        driverPerMile: 0.809,
      },
      // 2022: truck/trailer .331, R&M .196, insurance .088, tires .045, tolls .028.
      {
        edition: 2023,
        dataYear: 2022,
        publishedOn: "2023-06-01",
        equipmentPerMile: 0.688,
        totalPerMile: 2.251,
        fuelPerMile: 0.641,
        driverPerMile: 0.922,
      },
      // 2023: non-fuel 1.716 minus wages .779 and benefits .188.
      {
        edition: 2024,
        dataYear: 2023,
        publishedOn: "2024-06-01",
        equipmentPerMile: 0.749,
        totalPerMile: 2.269,
        fuelPerMile: 0.553,
        driverPerMile: 0.967,
      },
      // 2024: non-fuel 1.779 minus wages .798 and benefits .197.
      {
        edition: 2025,
        dataYear: 2024,
        publishedOn: "2025-07-01",
        equipmentPerMile: 0.784,
        totalPerMile: 2.26,
        fuelPerMile: 0.481,
        driverPerMile: 0.995,
      },
    ] satisfies AtriEdition[],
    source:
      "ATRI Operational Costs of Trucking, line items as quoted by FreightWaves, Truckinginfo, natcotransport, safecarriers, The Trucker, the Minnesota Trucking Association, USDA Grain Transportation Report and farmequip.org " +
      "(docs/data-sources.md); equipment = non-fuel total minus driver wages and benefits.",
  },

  marginPerMile: {
    value: 0.15,
    source:
      "Waybill product decision: a flat carrier margin of $0.15 per loaded mile, never multiplied; it also covers dispatch, billing and " +
      "booking, which ATRI's operating costs leave out (docs/rate-model.md, 'One cost per mile').",
  },

  modeMultiplier: {
    value: { FTL: 1.0, LTL: 1.35, INTERMODAL: 0.82 } satisfies Record<Mode, number>,
    source:
      "Waybill product decision (docs/api.md, Skills): LTL handling and consolidation premium; intermodal rail line-haul discount. " +
      "Applied to the driver, equipment, stop and empty-mile lines, never to fuel (docs/rate-model.md, 'Fuel counted once').",
  },

  equipmentMultiplier: {
    value: { DRY_VAN: 1.0, REEFER: 1.15, FLATBED: 1.15 } satisfies Record<Equipment, number>,
    source:
      "DAT national spot linehaul rates (fuel surcharge excluded) over van, median of 2024-04, 2024-11, 2024-12 and 2025-01: reefer 1.195, " +
      "flatbed 1.145 (docs/rate-model.md, 'Equipment'); the reefer figure less the unit's own fuel, which the model prices itself " +
      "(about 0.04 of van linehaul), rounded to 0.05. Applied to the driver, equipment, stop and empty-mile lines, never to fuel. " +
      "DAT's 2025-09 month, which the fidelity benchmark judges by, is not among the months.",
  },

  fuelSurcharge: {
    value: { baseDieselPerGallon: 1.25 },
    source:
      "ATA/DOE per-mile tariff: (DOE/EIA weekly diesel of the origin's region - $1.25 base) / the equipment's mpg, floored at zero. " +
      "The same rule and mpg serve rate-lookup and fuel-surcharge; in rate-lookup it is split out of the fuel line, so the total " +
      "does not move (docs/rate-model.md, 'Fuel counted once').",
  },

  load: {
    value: {
      stopHours: 4,
      emptyShareOfLoadedMiles: 0.2,
      minEmptyMilesPerLoad: 50,
      equipmentTimeShare: 0.609,
      referenceHaulMiles: 1000,
    },
    source:
      "docs/rate-model.md, 'One cost per mile'. Stops: two stops at the 2 hours of free time per stop the industry books (DOT OIG 2018, " +
      "driver detention). Empty miles: ATRI 2025 edition, non-revenue miles 16.7 % of all miles = 0.20 per loaded mile, and at least " +
      "50 mi to reach a pickup (the value of 0/25/50/75/100/150 that fitted the USDA AMS fit weeks best under model 2026.11.4). " +
      "Equipment time share: ATRI 2023 edition (2022 data), truck/trailer payments $0.331 and insurance $0.088 of $0.688 equipment per mile " +
      "run by the day; repair, tires and tolls ($0.269) run by the mile. Reference haul: ATRI's per-mile lines are read as the cost of a " +
      "1,000-mile loaded haul with its empty miles and stops, and split over that haul's hours and driven miles once.",
  },

  laneBalance: {
    value: {
      /** What a reefer load out of a shipping district pays over the cost basis, before the two multipliers. */
      level: 1.36,
      /** Multiplier on a load leaving the district (the origin's nearest USDA AMS shipping district). */
      outbound: {
        GEORGIA: 1.47,
        "IMPERIAL, COACHELLA VALLEYS CA, CENTRAL AND WESTERN AZ, MEXICO CROSSINGS THROUGH CALEXICO AND SAN LUIS": 1.03,
        "KERN DISTRICT CALIFORNIA": 1.03,
        "MEXICO CROSSINGS THROUGH NOGALES ARIZONA": 0.99,
        "MEXICO CROSSINGS THROUGH SOUTH TEXAS": 1.1,
        "OXNARD DISTRICT CALIFORNIA": 1.03,
        "SALINAS-WATSONVILLE CALIFORNIA": 0.99,
        "SAN LUIS VALLEY COLORADO": 0.66,
        "SANTA MARIA CALIFORNIA": 1.04,
        "SOUTH AND CENTRAL DISTRICT CALIFORNIA": 0.85,
        "VIDALIA DISTRICT GEORGIA": 1.31,
        "YAKIMA VALLEY AND WENATCHEE DISTRICT WASHINGTON": 0.76,
      } as Partial<Record<string, number>>,
      /** Multiplier on a load entering the market (a destination there). */
      inbound: {
        CALIFORNIA: 0.59,
        FLORIDA: 1.06,
        NORTHEAST: 1.02,
        PACIFIC_NORTHWEST: 1.67,
        SOUTHEAST: 1.08,
        TEXAS: 0.99,
        UPPER_MIDWEST: 0.86,
      } as Partial<Record<FreightMarket, number>>,
      modes: ["FTL"] as readonly Mode[],
      /** Public evidence of head-haul / back-haul exists only for reefer produce lanes (USDA AMS FVWTRK). */
      equipment: ["REEFER"] as readonly Equipment[],
    },
    source:
      "Fitted, no published source: USDA AMS FVWTRK reefer $/load on the fit weeks 2026-04-29, 2026-06-30 and 2026-07-07 only (216 lane-weeks), " +
      "Tukey median polish of log((USDA midpoint - the load's diesel) / the non-fuel lines and margin) into destination-market, origin-district and week effects, week effects dropped, " +
      "district and market effects centred to average 1 over the fit lane-weeks, the level the median of what they leave; groups with fewer than 6 lane-weeks get no multiplier " +
      "(test/bench/fidelity/fit-lane-balance.ts, docs/rate-model.md 'Lane balance'). Truckload only: LTL and intermodal networks consolidate and do not price the empty return per lane. " +
      "Reefer only: USDA AMS prices reefer produce lanes, and no public source shows direction for dry van or flatbed.",
  },

  circuity: {
    value: { interstate: 1.12, shortTrip: 1.2, shortTripBelowMiles: 100 },
    source:
      "Fallback only, when the road network cannot serve a lane. Road miles / great-circle miles: 1.12 minimises the largest error over " +
      "15 metro-to-metro truck lanes whose ratios run 1.04 (Los Angeles-Phoenix) to 1.20 (Seattle-Portland); Boston-Dallas 1.15 (Wolfram). " +
      "Trips under 100 great-circle miles rise linearly toward 1.20, the urban random-pair factor (Newell 1980; Ballou et al. 2002).",
  },

  minLaneMiles: {
    value: 5,
    source:
      "Waybill input check: a caller's distance below 5 miles (or below 0.9x the straight line between the places) is a typing error, not a truckload lane.",
  },

  maxLaneMiles: {
    value: 5000,
    source: "Longest plausible US truck move (Key West to Anchorage is about 4,900 road miles).",
  },
} as const;

/** The newest ATRI edition published on or before a date. */
export function atriEditionAsOf(asOf: string): AtriEdition | undefined {
  return RATE_MODEL.atriEditions.value.filter((edition) => edition.publishedOn <= asOf).at(-1);
}

/** Road-circuity factor for a great-circle distance. */
export function circuityFactor(greatCircleMiles: number): number {
  const { interstate, shortTrip, shortTripBelowMiles } = RATE_MODEL.circuity.value;
  if (greatCircleMiles >= shortTripBelowMiles) return interstate;
  return shortTrip - ((shortTrip - interstate) * greatCircleMiles) / shortTripBelowMiles;
}
