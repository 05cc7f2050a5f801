import { readFileSync } from "node:fs";
import { DEFAULT_LIMITS, parseLimits, type LimitsTable } from "./metering/limits.ts";

/** A configuration value the operator got wrong: printed as one line, and the process stops. */
export class ConfigError extends Error {}

export const DEFAULT_PORT = 8080;
export const DEFAULT_DB = "./waybill.db";
/** Loopback by default: until an admin exists the setup page is open to whoever reaches it. */
export const DEFAULT_HOST = "127.0.0.1";

export interface ServeConfig {
  port: number;
  host: string;
  dbFile: string;
  limits: LimitsTable;
  /** Let webhooks go to loopback and private addresses, and over plain http (docs/alerts-and-webhooks.md). */
  allowPrivateWebhooks: boolean;
}

type Env = Record<string, string | undefined>;

export function resolveDbFile(flag: string | undefined, env: Env): string {
  return flag ?? env.WAYBILL_DB ?? DEFAULT_DB;
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new ConfigError(`'${raw}' is not a port number (0-65535).`);
  return port;
}

function readLimits(file: string | undefined, env: Env): LimitsTable {
  let json: string | undefined = env.WAYBILL_LIMITS;
  let origin = "WAYBILL_LIMITS";
  if (file) {
    try {
      json = readFileSync(file, "utf8");
      origin = file;
    } catch {
      throw new ConfigError(`cannot read the limits file ${file}.`);
    }
  }
  if (json === undefined || json.trim() === "") return DEFAULT_LIMITS;
  try {
    return parseLimits(json);
  } catch (error) {
    throw new ConfigError(`${origin}: ${(error as Error).message}`);
  }
}

/** Flags win over the environment, which wins over the embedded defaults. */
export function serveConfig(
  flags: { port?: string; host?: string; db?: string; limits?: string; "allow-private-webhooks"?: boolean },
  env: Env,
): ServeConfig {
  return {
    port: parsePort(flags.port ?? env.WAYBILL_PORT ?? String(DEFAULT_PORT)),
    host: flags.host ?? env.WAYBILL_HOST ?? DEFAULT_HOST,
    dbFile: resolveDbFile(flags.db, env),
    limits: readLimits(flags.limits, env),
    allowPrivateWebhooks: flags["allow-private-webhooks"] === true || env.WAYBILL_ALLOW_PRIVATE_WEBHOOKS === "1",
  };
}
