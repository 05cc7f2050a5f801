import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { openDatabase, type Db } from "./client.ts";

/** The database's folder must exist: a mistyped path is an error, not a new empty database somewhere. */
export function requireDatabaseFolder(file: string): string {
  const path = resolve(file);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new ConfigError(`cannot open database ${path}: the folder ${folder} does not exist.`);
  }
  return path;
}

/** Open (creating and migrating) the database file, or explain in one line why it cannot be. */
export function openDatabaseFile(file: string): Db {
  const path = requireDatabaseFolder(file);
  try {
    return openDatabase(path);
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0];
    throw new ConfigError(`cannot open database ${path}: ${reason}.`);
  }
}
