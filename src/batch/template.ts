import Papa from "papaparse";

/** The bid-sheet template offered for download: the columns a sheet takes, with two example lanes. */
export function templateCsv(): string {
  return Papa.unparse({
    fields: [
      "origin",
      "destination",
      "equipment",
      "mode",
      "miles",
      "include_fuel_surcharge",
      "as_of",
      "your_reference",
    ],
    data: [
      ["Chicago, IL", "Dallas, TX", "DRY_VAN", "FTL", "", "no", "", "RFP-001"],
      ["Fresno, CA", "60601", "REEFER", "FTL", "", "yes", "", "RFP-002"],
    ],
  });
}
