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
  /** Run `data sync` inside the server this often (ms); undefined: never. */
  syncEveryMs?: number;
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

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "30m", "6h", "1d" -> ms; at least 5 minutes, so a typo cannot hammer the sources. */
export function parseSyncEvery(raw: string): number {
  const match = /^(\d+)([mhd])$/.exec(raw.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!]! : Number.NaN;
  if (!(ms >= 5 * 60_000)) throw new ConfigError(`--sync-every '${raw}' must be a duration of at least 5 minutes, like 30m, 6h or 1d.`);
  return ms;
}

/** Flags win over the environment, which wins over the embedded defaults. */
export function serveConfig(flags: { port?: string; host?: string; db?: string; limits?: string; "sync-every"?: string }, env: Env): ServeConfig {
  const syncEvery = flags["sync-every"] ?? env.WAYBILL_SYNC_EVERY;
  return {
    port: parsePort(flags.port ?? env.WAYBILL_PORT ?? String(DEFAULT_PORT)),
    host: flags.host ?? env.WAYBILL_HOST ?? DEFAULT_HOST,
    dbFile: resolveDbFile(flags.db, env),
    limits: readLimits(flags.limits, env),
    syncEveryMs: syncEvery === undefined || syncEvery === "" ? undefined : parseSyncEvery(syncEvery),
  };
}
