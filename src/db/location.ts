import { ConfigError } from "../errors.ts";

/** Where the data lives: the embedded SQLite file (the default) or a PostgreSQL server. */
export type DatabaseLocation = { dialect: "sqlite"; file: string } | { dialect: "postgres"; url: string };

type Env = Record<string, string | undefined>;

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/**
 * Flags win over the environment: `--database URL|FILE`, then `--db FILE`, then
 * WAYBILL_DATABASE_URL, then WAYBILL_DB, then the default file.
 */
export function databaseLocation(
  flags: { database?: string; db?: string },
  env: Env,
  defaultFile: string,
): DatabaseLocation {
  const named = flags.database ?? flags.db ?? (env.WAYBILL_DATABASE_URL || undefined) ?? env.WAYBILL_DB ?? defaultFile;
  if (!POSTGRES_URL.test(named)) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(named))
      throw new ConfigError(
        `'${redacted(named)}' is not a database Waybill opens; use a postgres:// URL or a SQLite file path.`,
      );
    return { dialect: "sqlite", file: named };
  }
  try {
    new URL(named);
  } catch {
    throw new ConfigError(`'${redacted(named)}' is not a valid postgres:// URL.`);
  }
  return { dialect: "postgres", url: named };
}

/** How a location is named in output and errors: never with its password. */
export function describeLocation(location: DatabaseLocation): string {
  return location.dialect === "sqlite" ? location.file : redacted(location.url);
}

function redacted(url: string): string {
  return url.replace(/(:\/\/[^:/@]*:)[^@]*@/, "$1***@");
}
