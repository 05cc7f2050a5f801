import { systemClock } from "../clock.ts";
import { resolvedPath } from "../ops/instance-lock.ts";
import { witnessFileOf } from "../receipts/witness.ts";
import { VERSION } from "../version.ts";
import {
  accountsCreate,
  accountsCreateRequest,
  accountsList,
  accountsSetPassword,
  accountsSetTier,
} from "./accounts.ts";
import { backup } from "./backup.ts";
import { dataImportCensus } from "./census.ts";
import { type Command, type Flag, type Invocation, storeCommand } from "./command.ts";
import { dataImport, dataRetract, dataStatus } from "./data.ts";
import { roadsPromote } from "./data-roads.ts";
import { dataSync } from "./data-sync.ts";
import { helpFor } from "./help.ts";
import { keysCreate, keysRevoke, keysRotateSigning } from "./keys.ts";
import { migrateCommand } from "./migrate.ts";
import { receiptsVerifyCommand } from "./receipts.ts";
import { ok, UsageError } from "./result.ts";
import { verifyCommand } from "./verify.ts";
import { webhooksAdd, webhooksList } from "./webhooks.ts";

async function readStdin(): Promise<string> {
  return (await Bun.stdin.text()).replace(/\r?\n$/, "");
}

const passwordFromStdin = (invocation: Invocation) =>
  invocation.values["password-stdin"] === true ? readStdin() : Promise.resolve(undefined);

const email: Flag = { type: "string", value: "E", required: true };
const publicUrl: Flag = { type: "string", value: "URL" };
const passwordStdin: Flag = { type: "boolean" };

/** Every command of `waybill`, once: parsing, `--help`, dispatch and the README's table derive from this list. */
export const COMMANDS: readonly Command[] = [
  {
    name: "serve",
    summary: "start the server (the default command); one server per database file.",
    database: "server",
    flags: {
      port: { type: "string", value: "P", help: "WAYBILL_PORT, default 8080 (0: any free port)" },
      host: { type: "string", value: "H", help: "WAYBILL_HOST, default 127.0.0.1" },
      limits: { type: "string", value: "FILE", help: "WAYBILL_LIMITS (JSON), tier limits overriding the defaults" },
      "log-format": {
        type: "string",
        value: "text|json",
        help: "WAYBILL_LOG_FORMAT, text (default) or json: one line per request and event",
      },
      "log-level": {
        type: "string",
        value: "L",
        help: "WAYBILL_LOG_LEVEL, debug | info (default) | warn | error; access lines are info",
      },
      "trust-proxy": {
        type: "boolean",
        help: "WAYBILL_TRUST_PROXY=1: believe X-Forwarded-For/-Proto from the proxy in front",
      },
      "public-url": {
        ...publicUrl,
        help: "WAYBILL_PUBLIC_URL: the https origin users reach (cookies, links, origin checks)",
      },
      offline: {
        type: "boolean",
        help: "WAYBILL_OFFLINE=1: no `data sync` inside the server (by default it syncs within a\nminute of starting, then on each source's publication cadence)",
      },
      "sync-every": {
        type: "string",
        value: "6h",
        help: "WAYBILL_SYNC_EVERY (30m, 6h, 1d; at least 5 minutes): check every source this often instead",
      },
      "cors-origins": {
        type: "string",
        value: "A,B",
        help: "WAYBILL_CORS_ORIGINS: browser origins allowed to call the API (none by default)",
      },
      "allow-private-webhooks": {
        type: "boolean",
        help: "WAYBILL_ALLOW_PRIVATE_WEBHOOKS=1: let webhooks reach private addresses and plain http",
      },
    },
  },
  storeCommand({
    name: "accounts create",
    summary: "create an account (tier explorer unless given); without --password-stdin a one-time link is printed.",
    notes: "The link sets the account's first password (for --admin too, so no one is locked out).",
    database: "creates",
    flags: {
      email,
      tier: { type: "string", value: "T" },
      admin: { type: "boolean" },
      "password-stdin": passwordStdin,
      "public-url": publicUrl,
    },
    async prepare(invocation) {
      invocation.givenLinkOrigin(); // a malformed --public-url is refused before the file exists
      return accountsCreateRequest({
        email: invocation.flag("email"),
        tier: invocation.flag("tier"),
        admin: invocation.values.admin === true,
        password: await passwordFromStdin(invocation),
        json: invocation.json,
      });
    },
    async run(opened, request) {
      return accountsCreate(opened.store, systemClock, { ...request, publicUrl: await opened.linkOrigin() });
    },
  }),
  storeCommand({
    name: "accounts set-tier",
    summary: "move an account to another tier; takes effect on its next call.",
    database: "existing",
    flags: { email, tier: { type: "string", value: "T", required: true } },
    run: async (opened) =>
      accountsSetTier(opened.store, { email: opened.flag("email"), tier: opened.flag("tier"), json: opened.json }),
  }),
  storeCommand({
    name: "accounts set-password",
    summary: "set an account's password from stdin, or print a one-time link (valid 24 h) where its owner sets one.",
    notes: "Signs the account out everywhere.",
    database: "existing",
    flags: { email, "password-stdin": passwordStdin, "public-url": publicUrl },
    run: async (opened) =>
      accountsSetPassword(opened.store, systemClock, {
        email: opened.flag("email"),
        password: await passwordFromStdin(opened),
        publicUrl: await opened.linkOrigin(),
        json: opened.json,
      }),
  }),
  storeCommand({
    name: "accounts list",
    summary: "every account with its tier.",
    database: "existing",
    flags: {},
    run: async (opened) => accountsList(opened.store, { json: opened.json }),
  }),
  storeCommand({
    name: "keys create",
    summary: "issue a key (printed once); revokes the account's previous key.",
    database: "existing",
    flags: { email, scopes: { type: "string", value: "rate-lookup,fuel-surcharge" } },
    run: async (opened) =>
      keysCreate(opened.store, systemClock, {
        email: opened.flag("email"),
        scopes: opened.flag("scopes"),
        json: opened.json,
      }),
  }),
  storeCommand({
    name: "keys revoke",
    summary: "revoke the account's active key; refused on its very next call.",
    database: "existing",
    flags: { email },
    run: async (opened) => keysRevoke(opened.store, systemClock, { email: opened.flag("email"), json: opened.json }),
  }),
  storeCommand({
    name: "keys rotate-signing",
    summary: "a new Ed25519 key signs the log's checkpoints from now on; older keys stay published and verifiable.",
    database: "creates",
    flags: {},
    run: async (opened) => keysRotateSigning(opened.store, systemClock, { json: opened.json }),
  }),
  storeCommand({
    name: "data status",
    summary: "every reference series with its newest figure and age, and every import.",
    database: "existing",
    flags: {},
    run: async (opened) => dataStatus(opened.store, { json: opened.json }),
  }),
  storeCommand({
    name: "data import",
    summary: "load an official download (or stage a road network: roads, osm), all or nothing; refused rows are named.",
    operands: "SOURCE FILE",
    notes: `  SOURCE                eia | fred | bls | ams | fhwa | cass | ata | fmcsa-authority | fmcsa-new-carriers
                        | roads (GeoJSON) | osm (an OpenStreetMap .osm.pbf: motorway, trunk, primary and links):
                        a road network is staged with its checks; \`data roads promote VERSION\` makes it price
                        | fmcsa: FMCSA's Company Census File, streamed into carrier counts by state and operation`,
    database: "creates",
    flags: {
      "max-mb": {
        type: "string",
        value: "N",
        help: "WAYBILL_IMPORT_MAX_MB, default 512: a larger file is refused before it is read (not fmcsa)",
      },
      date: {
        type: "string",
        value: "YYYY-MM-DD",
        help: "fmcsa only: the census's snapshot date when its file name carries none",
      },
    },
    async run(opened) {
      const [source, file] = opened.positionals;
      if (!source || !file) throw new UsageError("data import needs SOURCE and FILE: waybill data import eia FILE");
      if (source === "fmcsa")
        return dataImportCensus(opened.store, file, { json: opened.json, date: opened.flag("date") });
      const maxMb = opened.flag("max-mb") ?? process.env.WAYBILL_IMPORT_MAX_MB;
      if (maxMb !== undefined && !(Number(maxMb) > 0))
        throw new UsageError(`--max-mb must be a positive number of MiB, not '${maxMb}'`);
      return dataImport(opened.store, source, file, {
        json: opened.json,
        maxMb: maxMb === undefined ? undefined : Number(maxMb),
      });
    },
  }),
  storeCommand({
    name: "data sync",
    summary: "fetch new figures from the official sources, all or nothing per source; each line names what it read.",
    notes: `  without keys          EIA's weekly diesel workbook, FRED's graph CSV, BLS API v1, USDA AgTransport (FVWTRK)
  keys                  WAYBILL_EIA_API_KEY, WAYBILL_FRED_API_KEY, WAYBILL_BLS_API_KEY, WAYBILL_AMS_API_KEY
                        switch that source to its keyed API (higher limits); WAYBILL_FMCSA_APP_TOKEN is sent when set
  base URLs             keyed: WAYBILL_EIA_URL, WAYBILL_FRED_URL, WAYBILL_BLS_URL, WAYBILL_AMS_URL, WAYBILL_FMCSA_URL
                        keyless: WAYBILL_EIA_FILES_URL, WAYBILL_FRED_CSV_URL, WAYBILL_BLS_URL, WAYBILL_AGTRANSPORT_URL`,
    database: "creates",
    flags: { source: { type: "string", value: "eia|fred|bls|ams|fmcsa" }, since: { type: "string", value: "DATE" } },
    run: async (opened) =>
      dataSync(opened.store, {
        source: opened.flag("source"),
        since: opened.flag("since"),
        json: opened.json,
        env: process.env,
      }),
  }),
  storeCommand({
    name: "data retract",
    summary: "hide an import (or a road network) from every view from now on; receipts signed before keep reproducing.",
    operands: "IMPORT_ID|ROAD_NETWORK",
    database: "creates",
    flags: { reason: { type: "string", value: "TEXT", required: true } },
    async run(opened) {
      const [importId] = opened.positionals;
      const reason = opened.flag("reason");
      if (!importId || reason === undefined) throw new UsageError("data retract needs IMPORT_ID and --reason TEXT");
      return dataRetract(opened.store, importId, reason, { json: opened.json });
    },
  }),
  storeCommand({
    name: "data roads",
    summary: "let a staged road network (from `data import roads`) price lookups from now on.",
    notes: `Refused unless it passed its checks (coverage of the lower 48 and reference lanes within a band of
the network in use).`,
    operands: "promote VERSION",
    database: "creates",
    flags: {},
    async run(opened) {
      const [action, version] = opened.positionals;
      if (action !== "promote" || !version) throw new UsageError("data roads needs promote VERSION");
      return roadsPromote(opened.store, version, { json: opened.json });
    },
  }),
  storeCommand({
    name: "receipts verify",
    summary: "check every receipt, tile and signed checkpoint of the log; exit 1 naming the first failure.",
    database: "existing",
    flags: {
      checkpoint: {
        type: "string",
        value: "FILE",
        help: "a checkpoint you kept (GET /log/checkpoint): the log must still contain it",
      },
    },
    run: async (opened) =>
      receiptsVerifyCommand(opened.store, {
        json: opened.json,
        checkpoint: opened.flag("checkpoint"),
        witness: opened.sqlite ? witnessFileOf(resolvedPath(opened.sqlite.$client.filename)) : undefined,
      }),
  }),
  {
    name: "verify",
    summary: "check a saved audit report offline, opening no database (docs/receipts.md).",
    database: "none",
    flags: {
      receipt: {
        type: "string",
        value: "REPORT",
        required: true,
        help: "the audit report (GET /v1/reports/audit?receipt_id=…), saved as JSON",
      },
      checkpoint: {
        type: "string",
        value: "FILE",
        required: true,
        help: "the signed checkpoint its proof is for (the report's log.checkpoint)",
      },
      key: {
        type: "string",
        value: "KEY",
        required: true,
        help: "a note verifier key, or a file with one or the saved GET /v1/receipts/public-key",
      },
      response: {
        type: "string",
        value: "ANSWER",
        help: "the answer you received, checked against the receipt's response_sha256",
      },
    },
    run: async (invocation) =>
      verifyCommand({
        receipt: invocation.flag("receipt"),
        checkpoint: invocation.flag("checkpoint"),
        key: invocation.flag("key"),
        response: invocation.flag("response"),
        json: invocation.json,
      }),
  },
  storeCommand({
    name: "webhooks add",
    summary: "add a webhook endpoint to the account and print its signing secret once (docs/alerts-and-webhooks.md).",
    database: "creates",
    flags: {
      email,
      url: { type: "string", value: "U", required: true },
      events: { type: "string", value: "alert.triggered,..." },
      "allow-private-webhooks": { type: "boolean" },
    },
    run: async (opened) =>
      webhooksAdd(opened.store, systemClock, {
        email: opened.flag("email"),
        url: opened.flag("url"),
        events: opened.flag("events"),
        allowPrivate: opened.values["allow-private-webhooks"] === true,
        json: opened.json,
      }),
  }),
  storeCommand({
    name: "webhooks list",
    summary: "the account's webhook endpoints and whether each is enabled.",
    database: "creates",
    flags: { email },
    run: async (opened) => webhooksList(opened.store, { email: opened.flag("email"), json: opened.json }),
  }),
  storeCommand({
    name: "backup",
    summary:
      "a consistent copy of the live database (VACUUM INTO), safe while the server runs; on PostgreSQL use pg_dump.",
    operands: "FILE",
    database: "existing",
    notOnPostgres: "on PostgreSQL, back up with pg_dump (docs/postgresql.md); waybill backup copies a SQLite file.",
    flags: {},
    async run(opened) {
      // main.ts refuses PostgreSQL with notOnPostgres before the store opens; this only narrows the type.
      if (!opened.sqlite) throw new Error("waybill backup copies a SQLite file");
      return backup(opened.sqlite, opened.positionals[0], { json: opened.json });
    },
  }),
  {
    name: "migrate",
    summary:
      "apply this build's schema migrations and exit (serve also does at start); run it once before upgraded replicas start.",
    database: "location",
    flags: {},
    run: (invocation, location) => migrateCommand(location, { json: invocation.json }),
  },
  {
    name: "help",
    summary: "this list, or what one command or group does (the same as `waybill COMMAND --help`).",
    operands: "[COMMAND]",
    database: "none",
    flags: {},
    async run({ positionals }) {
      const help = helpFor(COMMANDS, positionals);
      if (help === undefined) throw new UsageError(`unknown command '${positionals.join(" ")}'; see 'waybill help'`);
      return ok(false, undefined, help);
    },
  },
  {
    name: "version",
    summary: "the version of this build (the same as `waybill --version`).",
    database: "none",
    flags: {},
    run: async ({ json }) => ok(json, { version: VERSION }, versionLine()),
  },
];

export const versionLine = (): string => `waybill ${VERSION}`;
