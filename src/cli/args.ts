import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./result.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON: Options = {
  db: { type: "string" },
  database: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
};

/** Flags each command accepts beyond --db, --json and --help. Anything else is refused. */
export const COMMAND_OPTIONS: Record<string, Options> = {
  serve: {
    port: { type: "string" },
    host: { type: "string" },
    limits: { type: "string" },
    "log-format": { type: "string" },
    "log-level": { type: "string" },
    "trust-proxy": { type: "boolean" },
    "public-url": { type: "string" },
    "sync-every": { type: "string" },
    offline: { type: "boolean" },
    "cors-origins": { type: "string" },
    "allow-private-webhooks": { type: "boolean" },
  },
  "accounts create": {
    email: { type: "string" },
    tier: { type: "string" },
    admin: { type: "boolean" },
    "password-stdin": { type: "boolean" },
    "public-url": { type: "string" },
  },
  "accounts set-tier": { email: { type: "string" }, tier: { type: "string" } },
  "accounts set-password": {
    email: { type: "string" },
    "password-stdin": { type: "boolean" },
    "public-url": { type: "string" },
  },
  "accounts list": {},
  "keys create": { email: { type: "string" }, scopes: { type: "string" } },
  "keys revoke": { email: { type: "string" } },
  "keys rotate-signing": {},
  "data status": {},
  "data import": { "max-mb": { type: "string" }, date: { type: "string" } },
  "data retract": { reason: { type: "string" } },
  "data sync": { source: { type: "string" }, since: { type: "string" } },
  "data roads": {},
  "receipts verify": { checkpoint: { type: "string" } },
  verify: {
    receipt: { type: "string" },
    checkpoint: { type: "string" },
    key: { type: "string" },
    response: { type: "string" },
  },
  backup: {},
  migrate: {},
  "webhooks add": {
    email: { type: "string" },
    url: { type: "string" },
    events: { type: "string" },
    "allow-private-webhooks": { type: "boolean" },
  },
  "webhooks list": { email: { type: "string" } },
};

/** One line of `waybill --help` and the body of `waybill COMMAND --help`. */
export const COMMAND_HELP: Record<string, { synopsis: string; details: string }> = {
  serve: {
    synopsis:
      "[--port P] [--host H] [--limits FILE] [--log-format text|json] [--log-level L] [--trust-proxy] [--public-url URL] [--offline] [--sync-every 6h] [--cors-origins A,B] [--allow-private-webhooks]",
    details: `start the server (the default command); one server per database file.
  --port P              WAYBILL_PORT, default 8080 (0: any free port)
  --host H              WAYBILL_HOST, default 127.0.0.1
  --limits FILE         WAYBILL_LIMITS (JSON), tier limits overriding the defaults
  --log-format F        WAYBILL_LOG_FORMAT, text (default) or json: one line per request and event
  --log-level L         WAYBILL_LOG_LEVEL, debug | info (default) | warn | error; access lines are info
  --trust-proxy         WAYBILL_TRUST_PROXY=1: believe X-Forwarded-For/-Proto from the proxy in front
  --public-url URL      WAYBILL_PUBLIC_URL: the https origin users reach (cookies, links, origin checks)
  --offline             WAYBILL_OFFLINE=1: no \`data sync\` inside the server (by default it syncs within a
                        minute of starting, then on each source's publication cadence)
  --sync-every D        WAYBILL_SYNC_EVERY (30m, 6h, 1d; at least 5 minutes): check every source this often instead
  --cors-origins A,B    WAYBILL_CORS_ORIGINS: browser origins allowed to call the API (none by default)`,
  },
  "accounts create": {
    synopsis: "--email E [--tier T] [--admin] [--password-stdin] [--public-url URL]",
    details: `create an account (tier explorer unless given). Without --password-stdin the account has no
password yet and a one-time link to set one is printed (for --admin too, so no one is locked out).`,
  },
  "accounts set-tier": {
    synopsis: "--email E --tier T",
    details: "move an account to another tier; takes effect on its next call.",
  },
  "accounts set-password": {
    synopsis: "--email E [--password-stdin] [--public-url URL]",
    details: `set an account's password from stdin, or print a one-time link (valid 24 h) where its owner sets one.
Signs the account out everywhere.`,
  },
  "accounts list": { synopsis: "", details: "every account with its tier." },
  "keys create": {
    synopsis: "--email E [--scopes rate-lookup,fuel-surcharge]",
    details: "issue a key (printed once); revokes the account's previous key.",
  },
  "keys revoke": { synopsis: "--email E", details: "revoke the account's active key; refused on its very next call." },
  "keys rotate-signing": {
    synopsis: "",
    details: "a new Ed25519 key signs the log's checkpoints from now on; older keys stay published and verifiable.",
  },
  "data status": { synopsis: "", details: "every reference series with its newest figure and age, and every import." },
  "data import": {
    synopsis: "SOURCE FILE [--max-mb N]",
    details: `add figures from an official download, all or nothing; refused rows are named.
  SOURCE                eia | fred | bls | ams | fhwa | cass | ata | fmcsa-authority | fmcsa-new-carriers
                        | roads (GeoJSON) | osm (an OpenStreetMap .osm.pbf: motorway, trunk, primary and links):
                        a road network is staged with its checks; \`data roads promote VERSION\` makes it price
                        | fmcsa: FMCSA's Company Census File, streamed into carrier counts by state and operation
  --max-mb N            WAYBILL_IMPORT_MAX_MB, default 512: a larger file is refused before it is read (not fmcsa)
  --date YYYY-MM-DD     fmcsa only: the census's snapshot date when its file name carries none`,
  },
  "data retract": {
    synopsis: "IMPORT_ID|ROAD_NETWORK --reason TEXT",
    details: "hide an import (or a road network) from every view from now on; receipts signed before keep reproducing.",
  },
  "data roads": {
    synopsis: "promote VERSION",
    details: `let a staged road network (from \`data import roads\`) price lookups from now on; refused unless it
passed its checks (coverage of the lower 48 and reference lanes within a band of the network in use).`,
  },
  "data sync": {
    synopsis: "[--source eia|fred|bls|ams|fmcsa] [--since DATE]",
    details: `fetch new figures from the official sources, all or nothing per source; each line names what it read.
  without keys          EIA's weekly diesel workbook, FRED's graph CSV, BLS API v1, USDA AgTransport (FVWTRK)
  keys                  WAYBILL_EIA_API_KEY, WAYBILL_FRED_API_KEY, WAYBILL_BLS_API_KEY, WAYBILL_AMS_API_KEY
                        switch that source to its keyed API (higher limits); WAYBILL_FMCSA_APP_TOKEN is sent when set
  base URLs             keyed: WAYBILL_EIA_URL, WAYBILL_FRED_URL, WAYBILL_BLS_URL, WAYBILL_AMS_URL, WAYBILL_FMCSA_URL
                        keyless: WAYBILL_EIA_FILES_URL, WAYBILL_FRED_CSV_URL, WAYBILL_BLS_URL, WAYBILL_AGTRANSPORT_URL`,
  },
  "receipts verify": {
    synopsis: "[--checkpoint FILE]",
    details: `check every receipt, tile and signed checkpoint of the log; exit 1 naming the first failure.
  --checkpoint FILE     a checkpoint you kept (GET /log/checkpoint): the log must still contain it`,
  },
  verify: {
    synopsis: "--receipt REPORT --checkpoint FILE --key KEY [--response ANSWER]",
    details: `check a saved audit report offline, opening no database (docs/receipts.md).
  --receipt REPORT      the audit report (GET /v1/reports/audit?receipt_id=…), saved as JSON
  --checkpoint FILE     the signed checkpoint its proof is for (the report's log.checkpoint)
  --key KEY             a note verifier key, or a file with one or the saved GET /v1/receipts/public-key
  --response ANSWER     the answer you received, checked against the receipt's response_sha256`,
  },
  backup: {
    synopsis: "FILE",
    details:
      "a consistent copy of the live database (VACUUM INTO), safe while the server runs; on PostgreSQL use pg_dump.",
  },
  migrate: {
    synopsis: "",
    details:
      "apply this build's schema migrations and exit (serve also does at start); run it once before upgraded replicas start.",
  },
  "webhooks add": {
    synopsis: "--email E --url U [--events alert.triggered,...] [--allow-private-webhooks]",
    details: "add a webhook endpoint to the account and print its signing secret once (docs/alerts-and-webhooks.md).",
  },
  "webhooks list": { synopsis: "--email E", details: "the account's webhook endpoints and whether each is enabled." },
};

const FOOTER = `every command: --db FILE (env WAYBILL_DB, default ./waybill.db) or --database postgres://… (env
WAYBILL_DATABASE_URL; docs/postgresql.md), --json, --help
exit codes: 0 done, 1 refused or failed, 2 bad arguments; errors are one line on stderr
(with --json: {"error": CODE, "message": TEXT})`;

export const USAGE = `waybill — freight cost-basis rates with signed receipts

usage: waybill [command] [flags]

${Object.entries(COMMAND_HELP)
  .map(([name, help]) => `  ${name.padEnd(24)} ${help.synopsis}`)
  .join("\n")}

${FOOTER}`;

/** `waybill NAME --help`: a command's flags, or a group's commands (`waybill keys --help`). */
export function helpFor(words: readonly string[]): string {
  const pair = words.slice(0, 2).join(" ");
  const name = COMMAND_HELP[pair] ? pair : words[0];
  const help = name ? COMMAND_HELP[name] : undefined;
  if (help && name) return `usage: waybill ${name} ${help.synopsis}\n\n${help.details}\n\n${FOOTER}`;
  const group = Object.keys(COMMAND_HELP).filter((command) => command.startsWith(`${words[0]} `));
  if (group.length > 0)
    return `waybill ${words[0]} commands:\n\n${group.map((command) => `  ${command.padEnd(24)} ${COMMAND_HELP[command]!.synopsis}`).join("\n")}\n\n${FOOTER}`;
  return USAGE;
}

export interface ParsedCommand {
  name: string;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** argv (without the program) → the command and its flags; UsageError on anything unknown. */
export function parseCommand(argv: string[]): ParsedCommand {
  const words = argv.filter((a) => !a.startsWith("-"));
  const first = words[0];
  const pair = words.length >= 2 ? `${first} ${words[1]}` : undefined;
  const name =
    pair && COMMAND_OPTIONS[pair] ? pair : first && COMMAND_OPTIONS[first] ? first : first ? undefined : "serve";
  if (!name) throw new UsageError(`unknown command '${words.slice(0, 2).join(" ")}'; see 'waybill --help'`);
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...COMMON, ...COMMAND_OPTIONS[name] },
      allowPositionals: true,
      strict: true,
    });
    const nameWords = name.split(" ").length;
    return {
      name,
      values: values as ParsedCommand["values"],
      positionals: positionals.slice(name === "serve" && !first ? 0 : nameWords),
    };
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} (see 'waybill ${name} --help')`);
  }
}
