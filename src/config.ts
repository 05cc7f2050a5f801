import { readFileSync } from "node:fs";
import { databaseLocation, type DatabaseLocation } from "./db/location.ts";
import { ConfigError } from "./errors.ts";
import { parseCorsOrigins } from "./http/pipeline/cors.ts";
import { DEFAULT_LIMITS, parseLimits, type LimitsTable } from "./metering/limits.ts";
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "./ops/log.ts";

/** A flag or variable whose value is not of the right shape (a port that is not a number): exit 2, like any bad argument. */
export class ArgumentError extends ConfigError {}

export const DEFAULT_PORT = 8080;
export const DEFAULT_DB = "./waybill.db";
/** Loopback by default: until an admin exists the setup page is open to whoever reaches it. */
export const DEFAULT_HOST = "127.0.0.1";

export interface ServeConfig {
  port: number;
  host: string;
  /** The SQLite file (DEFAULT_DB when the database is PostgreSQL). */
  dbFile: string;
  /** Where the data lives: a SQLite file, or PostgreSQL by a postgres:// URL (docs/postgresql.md). */
  database: DatabaseLocation;
  limits: LimitsTable;
  logFormat: LogFormat;
  logLevel: LogLevel;
  /** Believe X-Forwarded-For / X-Forwarded-Proto from the reverse proxy in front (docs/operations.md). */
  trustProxy: boolean;
  /** The URL users reach the service at (behind a proxy): links, setup URLs, cookie security, origin checks. */
  publicUrl?: URL;
  /** Check every source this often (ms) instead of on its publication cadence; undefined: the cadence. */
  syncEveryMs?: number;
  /** No sync inside the server (`--offline`, WAYBILL_OFFLINE=1): it answers from what is stored. */
  offline: boolean;
  /** WAYBILL_LOG_ORIGIN: the receipt log's origin line (docs/receipts.md); else from the public URL. */
  logOrigin?: string;
  /** Browser origins allowed to call the API cross-origin (docs/api.md); none by default. */
  corsOrigins: string[];
  /** Let webhooks go to loopback and private addresses, and over plain http (docs/alerts-and-webhooks.md). */
  allowPrivateWebhooks: boolean;
}

type Env = Record<string, string | undefined>;

/** `--database postgres://…|FILE`, `--db FILE`, WAYBILL_DATABASE_URL, WAYBILL_DB (docs/postgresql.md). */
export function resolveDatabase(flags: { database?: string; db?: string }, env: Env): DatabaseLocation {
  try {
    return databaseLocation(flags, env, DEFAULT_DB);
  } catch (error) {
    throw error instanceof ConfigError ? new ArgumentError(error.message) : error;
  }
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new ArgumentError(`'${raw}' is not a port number (0-65535).`);
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
  const [, count, unit] = /^(\d+)([mhd])$/.exec(raw.trim()) ?? [];
  const unitMs = unit === undefined ? undefined : UNIT_MS[unit];
  const ms = unitMs === undefined ? Number.NaN : Number(count) * unitMs;
  if (!(ms >= 5 * 60_000))
    throw new ArgumentError(`--sync-every '${raw}' must be a duration of at least 5 minutes, like 30m, 6h or 1d.`);
  return ms;
}

function oneOf<T extends string>(what: string, allowed: readonly T[], raw: string): T {
  if (!(allowed as readonly string[]).includes(raw))
    throw new ArgumentError(`'${raw}' is not a ${what}; use one of ${allowed.join(", ")}.`);
  return raw as T;
}

export function parsePublicUrl(raw: string | undefined): URL | undefined {
  if (raw === undefined || raw === "") return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ArgumentError(`'${raw}' is not a URL (e.g. https://rates.example.com).`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new ArgumentError(`the public URL '${raw}' must be http:// or https://.`);
  if (url.pathname !== "/" || url.search || url.hash)
    throw new ArgumentError(`the public URL '${raw}' must be an origin, without a path.`);
  return url;
}

function parseFlag(raw: string | boolean | undefined): boolean {
  if (raw === undefined || raw === false || raw === "" || raw === "0" || raw === "false") return false;
  if (raw === true || raw === "1" || raw === "true") return true;
  throw new ArgumentError(`'${raw}' is not a yes/no value; use 1 or 0.`);
}

export interface ServeFlags {
  port?: string;
  host?: string;
  db?: string;
  database?: string;
  limits?: string;
  "log-format"?: string;
  "log-level"?: string;
  "trust-proxy"?: boolean;
  "public-url"?: string;
  "sync-every"?: string;
  offline?: boolean;
  "cors-origins"?: string;
  "allow-private-webhooks"?: boolean;
}

function readCorsOrigins(raw: string | undefined): string[] {
  try {
    return parseCorsOrigins(raw);
  } catch (error) {
    throw new ArgumentError(`--cors-origins: ${(error as Error).message}.`);
  }
}

/** Flags win over the environment, which wins over the embedded defaults. */
export function serveConfig(flags: ServeFlags, env: Env): ServeConfig {
  const database = resolveDatabase(flags, env);
  const syncEvery = flags["sync-every"] ?? env.WAYBILL_SYNC_EVERY;
  return {
    port: parsePort(flags.port ?? env.WAYBILL_PORT ?? String(DEFAULT_PORT)),
    host: flags.host ?? env.WAYBILL_HOST ?? DEFAULT_HOST,
    dbFile: database.dialect === "sqlite" ? database.file : DEFAULT_DB,
    database,
    limits: readLimits(flags.limits, env),
    syncEveryMs: syncEvery === undefined || syncEvery === "" ? undefined : parseSyncEvery(syncEvery),
    offline: flags.offline === true || parseFlag(env.WAYBILL_OFFLINE),
    logFormat: oneOf("log format", LOG_FORMATS, flags["log-format"] ?? env.WAYBILL_LOG_FORMAT ?? "text"),
    logLevel: oneOf("log level", LOG_LEVELS, flags["log-level"] ?? env.WAYBILL_LOG_LEVEL ?? "info"),
    trustProxy: flags["trust-proxy"] === true || parseFlag(env.WAYBILL_TRUST_PROXY),
    publicUrl: parsePublicUrl(flags["public-url"] ?? env.WAYBILL_PUBLIC_URL),
    logOrigin: env.WAYBILL_LOG_ORIGIN || undefined,
    corsOrigins: readCorsOrigins(flags["cors-origins"] ?? env.WAYBILL_CORS_ORIGINS),
    allowPrivateWebhooks: flags["allow-private-webhooks"] === true || env.WAYBILL_ALLOW_PRIVATE_WEBHOOKS === "1",
  };
}
