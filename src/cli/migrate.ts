import { describeLocation, type DatabaseLocation } from "../db/location.ts";
import { appliedMigrations, openStore } from "../db/open.ts";
import { ok, type CommandResult } from "./result.ts";

/**
 * `waybill migrate`: bring the database's schema up to this build (what `serve` also does at start),
 * so an upgrade can migrate once before the replicas restart (docs/postgresql.md).
 */
export async function migrateCommand(location: DatabaseLocation, options: { json: boolean }): Promise<CommandResult> {
  const before = await appliedMigrations(location);
  const opened = await openStore(location);
  await opened.close();
  const after = await appliedMigrations(location);
  const where = describeLocation(location);
  const value = { database: where, dialect: location.dialect, applied: after - before, migrations: after };
  const text =
    after === before
      ? `${where} is up to date (${after} migrations).`
      : `${where}: applied ${after - before} migration(s), now at ${after}.`;
  return ok(options.json, value, text);
}
