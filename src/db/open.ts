import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { openDatabase, type Db } from "./client.ts";

/** Open (creating and migrating) the database file, or explain in one line why it cannot be. */
export function openDatabaseFile(file: string): Db {
  const path = resolve(file);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new ConfigError(`cannot open database ${path}: the folder ${folder} does not exist.`);
  }
  try {
    return openDatabase(path);
  } catch (error) {
    const reason = (error as Error).message.split("\n")[0];
    throw new ConfigError(`cannot open database ${path}: ${reason}.`);
  }
}
