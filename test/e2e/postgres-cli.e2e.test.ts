import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { binaryFolderForSuite, runCli } from "../support/binary.ts";
import { usePostgres } from "../support/postgres.ts";

/**
 * The commands ported to the storage layer, run by the compiled binary against a real PostgreSQL
 * (docs/postgresql.md): migrate, accounts, keys, webhooks and data; backup points at pg_dump.
 */
const suite = binaryFolderForSuite();
/** Every migration in migrations-pg/: a new database gets all of them. */
const MIGRATIONS = (
  JSON.parse(readFileSync(join(import.meta.dir, "../../migrations-pg/meta/_journal.json"), "utf8")) as {
    entries: unknown[];
  }
).entries.length;
const postgres = usePostgres();

const json = (result: { exitCode: number; stdout: string; stderr: string }) => {
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout);
};

describe("the compiled binary on PostgreSQL", () => {
  test("migrate, then accounts, keys and webhooks by --database and by WAYBILL_DATABASE_URL; backup names pg_dump", async () => {
    const url = await postgres.freshDatabase();
    const cli = (...args: string[]) => runCli(suite.exe, [...args, "--database", url, "--json"], suite.dir);

    expect(json(cli("migrate"))).toMatchObject({ dialect: "postgres", applied: MIGRATIONS });
    expect(json(cli("migrate"))).toMatchObject({ applied: 0 });

    const account = json(cli("accounts", "create", "--email", "ops@example.com", "--tier", "starter"));
    expect(account).toMatchObject({ email: "ops@example.com", tier: "starter" });
    expect(account.password_link).toContain("/password/");
    expect(json(cli("accounts", "set-tier", "--email", "ops@example.com", "--tier", "professional")).tier).toBe(
      "professional",
    );

    const first = json(cli("keys", "create", "--email", "ops@example.com", "--scopes", "rate-lookup"));
    expect(first.key).toStartWith("wbk_");
    const second = json(cli("keys", "create", "--email", "ops@example.com"));
    expect(second.revoked_key_id).toBe(first.key_id);
    expect(json(cli("keys", "revoke", "--email", "ops@example.com")).revoked).toBe(second.key_id);

    const hook = json(
      cli("webhooks", "add", "--email", "ops@example.com", "--url", "https://hooks.example.com/waybill"),
    );
    expect(hook.secret).toStartWith("whsec_");
    expect(json(cli("webhooks", "list", "--email", "ops@example.com"))).toEqual([
      expect.objectContaining({ endpoint_id: hook.endpoint_id, enabled: true }),
    ]);

    // The environment variable selects the same database.
    const listed = runCli(suite.exe, ["accounts", "list", "--json"], suite.dir, undefined);
    expect(listed.stdout).not.toContain("ops@example.com"); // no URL: the SQLite default in the folder
    const byEnv = Bun.spawnSync([suite.exe, "accounts", "list", "--json"], {
      cwd: suite.dir,
      env: { PATH: process.env.PATH ?? "", WAYBILL_DATABASE_URL: url },
    });
    expect(JSON.parse(byEnv.stdout.toString()).accounts).toEqual([
      expect.objectContaining({ email: "ops@example.com", tier: "professional" }),
    ]);

    const backup = cli("backup", "copy.db");
    expect(backup.exitCode).toBe(1);
    expect(backup.stderr).toContain("pg_dump");
  }, 120_000);

  test("data import, status and retract on PostgreSQL: figures stored once, listed, and hidden by a retraction", async () => {
    const url = await postgres.freshDatabase();
    const cli = (...args: string[]) => runCli(suite.exe, [...args, "--database", url, "--json"], suite.dir);
    const file = join(import.meta.dir, "../fixtures/fred_wpu301.csv");
    const imported = JSON.parse(cli("data", "import", "fred", file).stdout);
    expect(imported).toMatchObject({ source: "fred", added: 4, skipped: 0 });
    expect(imported.import_id).toStartWith("imp_");
    expect(JSON.parse(cli("data", "import", "fred", file).stdout)).toMatchObject({
      import_id: null,
      added: 0,
      skipped: 4,
    });
    const refused = cli("data", "import", "eia", join(import.meta.dir, "../fixtures/fred_wpu301.csv"));
    expect(refused.exitCode).toBe(1);
    const status = json(cli("data", "status"));
    expect(status.series).toEqual([
      expect.objectContaining({ series_id: "WPU301", observations: 4, latest: "2025-12-01" }),
    ]);
    expect(status.imports).toEqual([
      expect.objectContaining({ id: imported.import_id, rows_added: 4, retracted: null }),
    ]);
    expect(json(cli("data", "retract", imported.import_id, "--reason", "wrong file"))).toMatchObject({
      import_id: imported.import_id,
      observations: 4,
    });
    expect(json(cli("data", "status")).imports[0].retracted).toMatchObject({ reason: "wrong file" });
  }, 120_000);

  test("a URL that is not a database Waybill opens is a bad argument, with its password hidden", () => {
    const result = runCli(suite.exe, ["accounts", "list", "--database", "mysql://root:secret@127.0.0.1/db"], suite.dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("root:***@");
    expect(result.stderr).not.toContain("secret");
  });
});
