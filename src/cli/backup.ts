import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Db } from "../db/client.ts";
import { failure, ok, type CommandResult } from "./result.ts";

/** A consistent copy of the live database (VACUUM INTO reads one snapshot while the server keeps writing). */
export function backup(db: Db, target: string | undefined, options: { json: boolean }): CommandResult {
  if (!target) return failure(options.json, "backup needs a target file: waybill backup FILE", "bad_arguments");
  const file = resolve(target);
  if (existsSync(file)) return failure(options.json, `${file} already exists; choose a new file.`);
  db.$client.prepare("VACUUM INTO ?").run(file);
  return ok(options.json, { backup: file }, `backed up to ${file}`);
}
