import Papa from "papaparse";
import { workbookOf } from "./xlsx.ts";

/** The bid-sheet template: the columns a sheet takes, with two example lanes. */
const TEMPLATE_COLUMNS = [
  "origin",
  "destination",
  "equipment",
  "mode",
  "miles",
  "include_fuel_surcharge",
  "as_of",
  "your_reference",
];
const EXAMPLE_LANES = [
  ["Chicago, IL", "Dallas, TX", "DRY_VAN", "FTL", "", "no", "", "RFP-001"],
  ["Fresno, CA", "60601", "REEFER", "FTL", "", "yes", "", "RFP-002"],
];

/** The template as CSV, for an analyst who uploads CSV. */
export function templateCsv(): string {
  return Papa.unparse({ fields: TEMPLATE_COLUMNS, data: EXAMPLE_LANES });
}

/** The same template as an XLSX workbook, for an analyst who works in a spreadsheet. */
export function templateXlsx(): Promise<ArrayBuffer> {
  return workbookOf("Lanes", TEMPLATE_COLUMNS, EXAMPLE_LANES);
}
