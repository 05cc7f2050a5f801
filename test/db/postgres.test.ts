import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { migrateCommand } from "../../src/cli/migrate.ts";
import { databaseLocation } from "../../src/db/location.ts";
import { appliedMigrations, openStore } from "../../src/db/open.ts";
import { PG_MIGRATIONS_DIR } from "../../src/paths.ts";
import { usePostgres } from "../support/postgres.ts";

const PG_MIGRATIONS = readdirSync(PG_MIGRATIONS_DIR).filter((name) => name.endsWith(".sql")).length;

const postgres = usePostgres();

describe("which database a command opens", () => {
  test("a postgres:// URL from --database or WAYBILL_DATABASE_URL selects PostgreSQL; flags win", () => {
    expect(databaseLocation({}, {}, "./waybill.db")).toEqual({ dialect: "sqlite", file: "./waybill.db" });
    expect(databaseLocation({}, { WAYBILL_DATABASE_URL: "postgres://u@h/db" }, "./w.db")).toEqual({
      dialect: "postgres",
      url: "postgres://u@h/db",
    });
    expect(databaseLocation({ db: "x.db" }, { WAYBILL_DATABASE_URL: "postgres://u@h/db" }, "./w.db")).toEqual({
      dialect: "sqlite",
      file: "x.db",
    });
    expect(databaseLocation({ database: "postgresql://u@h/db" }, { WAYBILL_DB: "y.db" }, "./w.db").dialect).toBe(
      "postgres",
    );
    expect(() => databaseLocation({ database: "mysql://u:secret@h/db" }, {}, "./w.db")).toThrow(
      /mysql:\/\/u:\*\*\*@h\/db/,
    );
  });
});

describe("PostgreSQL migrations", () => {
  test("waybill migrate applies migrations-pg once, then finds the database up to date", async () => {
    const location = { dialect: "postgres" as const, url: await postgres.freshDatabase() };
    expect(await appliedMigrations(location)).toBe(0);
    const first = JSON.parse((await migrateCommand(location, { json: true })).output);
    expect(first).toMatchObject({ dialect: "postgres", applied: PG_MIGRATIONS, migrations: PG_MIGRATIONS });
    const second = JSON.parse((await migrateCommand(location, { json: true })).output);
    expect(second).toMatchObject({ applied: 0, migrations: PG_MIGRATIONS });
  });

  test("replicas starting together migrate one at a time and all open the same schema", async () => {
    const location = { dialect: "postgres" as const, url: await postgres.freshDatabase() };
    const opened = await Promise.all([openStore(location), openStore(location), openStore(location)]);
    for (const { close } of opened) await close();
    expect(await appliedMigrations(location)).toBe(PG_MIGRATIONS);
  });

  test("the migrated tables take the rows the SQLite schema takes, with the same JS values back", async () => {
    const { store, close } = await openStore({ dialect: "postgres", url: await postgres.freshDatabase() });
    try {
      const { accounts, apiKeys, logTiles } = store.t;
      await store
        .insert(accounts)
        .values({ id: "acct_1", email: "a@example.com", isAdmin: true, createdAt: 1_790_000_000_123 });
      await store.insert(apiKeys).values({
        id: "key_1",
        accountId: "acct_1",
        digest: "d",
        displayId: "wbk_1",
        authObjId: "auth_obj_1",
        scopes: ["rate-lookup"],
        createdAt: 1,
      });
      await store.insert(logTiles).values({ level: 0, idx: 3, hashes: Buffer.from([1, 2, 3]) });
      const [account] = await store.select().from(accounts);
      expect(account).toMatchObject({ isAdmin: true, tier: "explorer", createdAt: 1_790_000_000_123 });
      const [key] = await store.select().from(apiKeys);
      expect(key?.scopes).toEqual(["rate-lookup"]);
      const [tile] = await store.select().from(logTiles);
      expect([...(tile?.hashes ?? [])]).toEqual([1, 2, 3]);
    } finally {
      await close();
    }
  });

  test("an unreachable server is one line naming the database without its password", async () => {
    const location = databaseLocation({ database: "postgres://waybill:hunter2@127.0.0.1:1/none" }, {}, "./w.db");
    await expect(openStore(location)).rejects.toThrow(
      /cannot open database postgres:\/\/waybill:\*\*\*@127\.0\.0\.1:1\/none/,
    );
  });
});
