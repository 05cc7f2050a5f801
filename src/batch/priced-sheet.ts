import Papa from "papaparse";
import { isPriced, type LaneOutcome } from "./outcome.ts";
import { workbookOf } from "./xlsx.ts";

/** One row of a sheet with what became of it (null: not priced yet). */
export interface SheetRow {
  row: number;
  cells: Record<string, unknown>;
  outcome: LaneOutcome | null;
}

/** The columns a priced sheet adds after every input column, in this order. */
export const PRICED_COLUMNS = [
  "rate_per_mile",
  "total_cost",
  "miles",
  "confidence",
  "market_low_per_load",
  "market_high_per_load",
  "market_date",
  "market_spread",
  "receipt_id",
  "error",
  "message",
] as const;

type PricedColumn = (typeof PRICED_COLUMNS)[number];

function pricedCells(outcome: LaneOutcome | null): Record<PricedColumn, string | number> {
  const cells = Object.fromEntries(PRICED_COLUMNS.map((column) => [column, ""])) as Record<
    PricedColumn,
    string | number
  >;
  if (outcome === null) return { ...cells, error: "PENDING", message: "Not priced yet." };
  if (!isPriced(outcome)) {
    const hint = outcome.suggestions ? ` Did you mean: ${outcome.suggestions.join("; ")}?` : "";
    return { ...cells, error: outcome.error, message: outcome.message + hint };
  }
  return {
    ...cells,
    rate_per_mile: outcome.rate_per_mile,
    total_cost: outcome.total_cost,
    miles: outcome.miles,
    confidence: outcome.confidence,
    ...(outcome.market && {
      market_low_per_load: outcome.market.low_per_load,
      market_high_per_load: outcome.market.high_per_load,
      market_date: outcome.market.observation_date,
      market_spread: outcome.market.spread,
    }),
    receipt_id: outcome.receipt_id,
  };
}

/** An added column whose name the sheet already uses is suffixed, so no input column is overwritten. */
function outputColumns(inputColumns: readonly string[]): { added: Record<PricedColumn, string>; all: string[] } {
  const taken = new Set(inputColumns);
  const added = Object.fromEntries(
    PRICED_COLUMNS.map((column) => [column, taken.has(column) ? `${column} (priced)` : column]),
  ) as Record<PricedColumn, string>;
  return { added, all: [...inputColumns, ...PRICED_COLUMNS.map((column) => added[column])] };
}

/** Every row as a flat record: its input cells in their columns, then the priced columns. */
function flatRows(inputColumns: readonly string[], rows: readonly SheetRow[]) {
  const { added, all } = outputColumns(inputColumns);
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const column of inputColumns) record[column] = row.cells[column] ?? "";
    for (const [column, value] of Object.entries(pricedCells(row.outcome)))
      record[added[column as PricedColumn]] = value;
    return record;
  });
  return { columns: all, records };
}

export function pricedCsv(inputColumns: readonly string[], rows: readonly SheetRow[]): string {
  const { columns, records } = flatRows(inputColumns, rows);
  return Papa.unparse({ fields: columns, data: records.map((record) => columns.map((column) => record[column])) });
}

export async function pricedXlsx(inputColumns: readonly string[], rows: readonly SheetRow[]): Promise<ArrayBuffer> {
  const { columns, records } = flatRows(inputColumns, rows);
  return workbookOf(
    "Priced lanes",
    columns,
    records.map((record) => columns.map((column) => record[column])),
  );
}

/** JSON lines: one object per row, in the sheet's order. */
export function pricedJsonLines(rows: readonly SheetRow[]): string {
  return rows
    .map((row) => JSON.stringify({ row: row.row, input: row.cells, ...(row.outcome ?? { status: "pending" }) }))
    .join("\n")
    .concat(rows.length > 0 ? "\n" : "");
}
