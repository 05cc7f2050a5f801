import { fieldName } from "./sheet.ts";

/** The rate-lookup fields a sheet's columns may carry; any other column is the analyst's own and is only kept. */
const LANE_FIELDS = new Set(["origin", "destination", "equipment", "mode", "miles", "include_fuel_surcharge", "as_of"]);

const YES = new Set(["true", "yes", "y", "1"]);
const NO = new Set(["false", "no", "n", "0"]);

/**
 * A sheet row's rate-lookup input. A JSON lane is the input as sent. A spreadsheet row's cells are
 * text: empty cells are left out, miles becomes a number, the surcharge a yes/no, and equipment and
 * mode are read forgivingly ("dry van" → DRY_VAN); anything still wrong is the validator's to name.
 */
export function laneInput(cells: Record<string, unknown>, fromJson: boolean): Record<string, unknown> {
  if (fromJson) return cells;
  const input: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(cells)) {
    const field = fieldName(column);
    if (!LANE_FIELDS.has(field)) continue;
    const text = String(raw ?? "").trim();
    if (text === "") continue;
    input[field] = cellValue(field, text);
  }
  return input;
}

function cellValue(field: string, text: string): unknown {
  switch (field) {
    case "miles": {
      const miles = Number(text.replace(/,/g, ""));
      return Number.isFinite(miles) ? miles : text;
    }
    case "include_fuel_surcharge": {
      const word = text.toLowerCase();
      return YES.has(word) ? true : NO.has(word) ? false : text;
    }
    case "equipment":
    case "mode":
      return text.toUpperCase().replace(/[\s-]+/g, "_");
    default:
      return text;
  }
}
