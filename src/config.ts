import { readFileSync } from "node:fs";
import { parseCorsOrigins } from "./http/cors.ts";
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
  /** Browser origins allowed to call the API cross-origin; none by default. */
  corsOrigins: string[];
  /** Where callers reach this instance (behind a proxy, its public address); the listen address otherwise. */
  publicUrl?: string;
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

function readCorsOrigins(raw: string | undefined): string[] {
  try {
    return parseCorsOrigins(raw);
  } catch (error) {
    throw new ConfigError(`--cors-origins: ${(error as Error).message}.`);
  }
}

function readPublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new ConfigError(`--public-url: '${raw}' is not an http(s) URL.`);
  return raw.replace(/\/+$/, "");
}

type ServeFlags = { port?: string; host?: string; db?: string; limits?: string; "cors-origins"?: string; "public-url"?: string };

/** Flags win over the environment, which wins over the embedded defaults. */
export function serveConfig(flags: ServeFlags, env: Env): ServeConfig {
  return {
    port: parsePort(flags.port ?? env.WAYBILL_PORT ?? String(DEFAULT_PORT)),
    host: flags.host ?? env.WAYBILL_HOST ?? DEFAULT_HOST,
    dbFile: resolveDbFile(flags.db, env),
    limits: readLimits(flags.limits, env),
    corsOrigins: readCorsOrigins(flags["cors-origins"] ?? env.WAYBILL_CORS_ORIGINS),
    publicUrl: readPublicUrl(flags["public-url"] ?? env.WAYBILL_PUBLIC_URL),
  };
}
