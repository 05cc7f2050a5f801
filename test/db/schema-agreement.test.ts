import { describe, expect, test } from "bun:test";
import { getTableConfig as pgConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as pg from "../../src/db/pg-schema.ts";
import * as sqlite from "../../src/db/schema.ts";

/** The JS value a column holds, which is what queries written once for both dialects rely on. */
function family(column: { dataType: string; columnType: string }): string {
  if (column.columnType === "PgCustomColumn" || column.columnType === "SQLiteBlobBuffer") return "bytes";
  if (column.columnType === "PgArray") return "json"; // a JavaScript array either way: SQLite keeps it as JSON text
  return column.dataType; // number | string | boolean | json
}

type Shape = ReturnType<typeof describeTable>;

function describeTable(config: ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>) {
  const primaryKeys = config.primaryKeys.map((key) => key.columns.map((column) => column.name));
  return {
    name: config.name,
    columns: config.columns.map((column) => ({
      name: column.name,
      family: family(column),
      notNull: column.notNull,
      primary: column.primary,
      unique: column.isUnique,
      default: column.default === undefined ? null : String(column.default),
      enum: column.enumValues ?? null,
    })),
    primaryKeys,
    indexes: config.indexes
      .map((index) => ({
        name: index.config.name ?? "",
        unique: index.config.unique,
        columns: index.config.columns.map((column) => (column as { name: string }).name),
        partial: index.config.where !== undefined,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: config.foreignKeys
      .map((key) => {
        const reference = key.reference();
        return {
          columns: reference.columns.map((column) => column.name),
          foreignColumns: reference.foreignColumns.map((column) => column.name),
          onDelete: key.onDelete ?? "no action",
        };
      })
      .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
  };
}

const sqliteTables = new Map<string, Shape>(
  Object.entries(sqlite)
    .filter(([, value]) => value instanceof SQLiteTable)
    .map(([name, table]) => [name, describeTable(sqliteConfig(table as SQLiteTable))]),
);
const pgTables = new Map<string, Shape>(
  Object.entries(pg)
    .filter(([, value]) => value instanceof PgTable)
    .map(([name, table]) => [name, describeTable(pgConfig(table as PgTable))]),
);

describe("the PostgreSQL schema agrees with the SQLite schema", () => {
  test("the same tables under the same names", () => {
    expect(sqliteTables.size).toBeGreaterThan(15);
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
  });

  for (const [name, shape] of sqliteTables) {
    test(`${name}: columns, keys, indexes and references`, () => {
      expect(pgTables.get(name)).toEqual(shape);
    });
  }
});
