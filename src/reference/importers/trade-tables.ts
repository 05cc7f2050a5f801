import type { ParsedObservation } from "../storage/admit.ts";
import {
  ATA_TONNAGE_NSA,
  ATA_TONNAGE_SA,
  CASS_EXPENDITURES_INDEX,
  CASS_SHIPMENTS_INDEX,
  CASS_TL_LINEHAUL_INDEX,
  FMCSA_NET_CHANGE_CARRIERS,
  FMCSA_NET_REVOCATIONS,
  FMCSA_NEW_FORHIRE_AUTHORITIES,
  fmcsaNewAuthoritiesSeries,
  fmcsaNewCarriersSeries,
} from "../series/series-ids.ts";
import { parseMonthlyTable } from "./monthly-table.ts";

/** Cass Freight Index monthly report table: shipments, expenditures, truckload linehaul index. */
export const parseCass = (lines: Iterable<string>): Iterable<ParsedObservation> =>
  parseMonthlyTable(lines, "a Cass Freight Index table", [
    { column: "shipments_index", seriesId: () => CASS_SHIPMENTS_INDEX },
    { column: "expenditures_index", seriesId: () => CASS_EXPENDITURES_INDEX },
    { column: "truckload_linehaul_index", seriesId: () => CASS_TL_LINEHAUL_INDEX },
  ]);

/** ATA truck tonnage release table (2015=100), seasonally adjusted and not. */
export const parseAta = (lines: Iterable<string>): Iterable<ParsedObservation> =>
  parseMonthlyTable(lines, "an ATA truck tonnage table", [
    { column: "tonnage_index_sa_2015eq100", seriesId: () => ATA_TONNAGE_SA },
    { column: "tonnage_index_nsa_2015eq100", seriesId: () => ATA_TONNAGE_NSA },
  ]);

/** FTR's monthly tabulation of FMCSA for-hire authority grants, net revocations and net change. */
export const parseFmcsaAuthority = (lines: Iterable<string>): Iterable<ParsedObservation> =>
  parseMonthlyTable(lines, "an FMCSA for-hire authority table", [
    { column: "new_forhire_authorities", seriesId: () => FMCSA_NEW_FORHIRE_AUTHORITIES },
    { column: "net_revocations", seriesId: () => FMCSA_NET_REVOCATIONS },
    { column: "net_change_carrier_population", seriesId: () => FMCSA_NET_CHANGE_CARRIERS },
  ]);

/**
 * New carriers by state per month. Two measures are published and kept apart: new USDOT registrations
 * (FMCSA_NEW_CARRIERS_<ST>) and new MC operating authorities granted (FMCSA_NEW_AUTHORITIES_<ST>),
 * told apart by the row's `measure` text.
 */
export const parseFmcsaNewCarriers = (lines: Iterable<string>): Iterable<ParsedObservation> =>
  parseMonthlyTable(lines, "an FMCSA new-carriers-by-state table (month, state_abbr, count, measure)", [
    {
      column: "count",
      seriesId: ({ state_abbr: state, measure }) => {
        if (state === undefined || !/^[A-Z]{2}$/.test(state)) return undefined;
        return /operating authorit/i.test(measure ?? "")
          ? fmcsaNewAuthoritiesSeries(state)
          : fmcsaNewCarriersSeries(state);
      },
    },
  ]);
