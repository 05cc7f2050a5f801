import { VERSION } from "./version.ts";
import { systemClock } from "./clock.ts";
import {
  type AccountsCreateRequest,
  accountsCreate,
  accountsCreateRequest,
  accountsList,
  accountsSetPassword,
  accountsSetTier,
} from "./cli/accounts.ts";
import { helpFor, parseCommand } from "./cli/args.ts";
import { backup } from "./cli/backup.ts";
import { dataImportCensus } from "./cli/census.ts";
import { dataImport, dataRetract, dataStatus } from "./cli/data.ts";
import { roadsPromote } from "./cli/data-roads.ts";
import { dataSync } from "./cli/data-sync.ts";
import { keysCreate, keysRevoke, keysRotateSigning } from "./cli/keys.ts";
import { receiptsVerifyCommand } from "./cli/receipts.ts";
import { migrateCommand } from "./cli/migrate.ts";
import { errorOutput, EXIT, failure, UsageError, type CommandResult } from "./cli/result.ts";
import { verifyCommand } from "./cli/verify.ts";
import { resolvedPath } from "./ops/instance-lock.ts";
import { witnessFileOf } from "./receipts/witness.ts";
import { webhooksAdd, webhooksList } from "./cli/webhooks.ts";
import { AccessError } from "./access/accounts.ts";
import { ArgumentError, DEFAULT_HOST, DEFAULT_PORT, parsePublicUrl, resolveDatabase, serveConfig } from "./config.ts";
import { ConfigError } from "./errors.ts";
import { rememberedLinkOrigin } from "./dashboard/index.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { openStore, type OpenStore } from "./db/open.ts";
import type { Db, Store } from "./db/client.ts";

async function readStdin(): Promise<string> {
  return (await Bun.stdin.text()).replace(/\r?\n$/, "");
}

type Values = Record<string, string | boolean | undefined>;

/** The address printed links must use when one was given: --public-url or WAYBILL_PUBLIC_URL (checked early). */
const givenLinkOrigin = (values: Values): string | undefined =>
  parsePublicUrl(typeof values["public-url"] === "string" ? values["public-url"] : process.env.WAYBILL_PUBLIC_URL)
    ?.origin;

/** Where printed links point: the given address, where `serve` last said it listens on this database, or the default. */
async function linkOrigin(values: Values, store: Store): Promise<string> {
  return (
    givenLinkOrigin(values) ??
    (await rememberedLinkOrigin(store)) ??
    `http://${process.env.WAYBILL_HOST ?? DEFAULT_HOST}:${process.env.WAYBILL_PORT ?? DEFAULT_PORT}`
  );
}

async function accountsCreateArguments(values: Values): Promise<AccountsCreateRequest> {
  givenLinkOrigin(values); // a malformed --public-url is refused before the database is created
  return accountsCreateRequest({
    email: typeof values.email === "string" ? values.email : undefined,
    tier: typeof values.tier === "string" ? values.tier : undefined,
    admin: values.admin === true,
    password: values["password-stdin"] ? await readStdin() : undefined,
    json: values.json === true,
  });
}

async function runCommand(
  opened: OpenStore,
  name: string,
  values: Values,
  positionals: string[],
): Promise<CommandResult> {
  const json = values.json === true;
  // Commands not yet written against the portable Store run on the SQLite file only (docs/postgresql.md).
  const db = (): Db => {
    if (opened.sqlite) return opened.sqlite;
    throw new ConfigError(`'waybill ${name}' does not run on PostgreSQL in this build yet (docs/postgresql.md).`);
  };
  const str = (flag: string) => (typeof values[flag] === "string" ? (values[flag] as string) : undefined);
  const publicUrl = await linkOrigin(values, opened.store);
  switch (name) {
    case "accounts set-password":
      return accountsSetPassword(opened.store, systemClock, {
        email: str("email"),
        password: values["password-stdin"] ? await readStdin() : undefined,
        publicUrl,
        json,
      });
    case "accounts set-tier":
      return accountsSetTier(opened.store, { email: str("email"), tier: str("tier"), json });
    case "accounts list":
      return accountsList(opened.store, { json });
    case "keys create":
      return keysCreate(opened.store, systemClock, { email: str("email"), scopes: str("scopes"), json });
    case "keys revoke":
      return keysRevoke(opened.store, systemClock, { email: str("email"), json });
    case "data status":
      return dataStatus(opened.store, { json });
    case "data import": {
      const [source, file] = positionals;
      if (!source || !file) throw new UsageError("data import needs SOURCE and FILE: waybill data import eia FILE");
      if (source === "fmcsa") return dataImportCensus(opened.store, file, { json, date: str("date") });
      const maxMb = str("max-mb") ?? process.env.WAYBILL_IMPORT_MAX_MB;
      if (maxMb !== undefined && !(Number(maxMb) > 0))
        throw new UsageError(`--max-mb must be a positive number of MiB, not '${maxMb}'`);
      return dataImport(opened.store, source, file, { json, maxMb: maxMb === undefined ? undefined : Number(maxMb) });
    }
    case "data sync":
      return dataSync(opened.store, { source: str("source"), since: str("since"), json, env: process.env });
    case "data roads": {
      const [action, version] = positionals;
      if (action !== "promote" || !version) throw new UsageError("data roads needs promote VERSION");
      return roadsPromote(opened.store, version, { json });
    }
    case "data retract": {
      const [importId] = positionals;
      if (!importId || str("reason") === undefined)
        throw new UsageError("data retract needs IMPORT_ID and --reason TEXT");
      return dataRetract(opened.store, importId, str("reason")!, { json });
    }
    case "keys rotate-signing":
      return keysRotateSigning(opened.store, systemClock, { json });
    case "receipts verify":
      return receiptsVerifyCommand(opened.store, {
        json,
        checkpoint: str("checkpoint"),
        witness: opened.sqlite ? witnessFileOf(resolvedPath(opened.sqlite.$client.filename)) : undefined,
      });
    case "webhooks add":
      return webhooksAdd(opened.store, systemClock, {
        email: str("email"),
        url: str("url"),
        events: str("events"),
        allowPrivate: values["allow-private-webhooks"] === true,
        json,
      });
    case "webhooks list":
      return webhooksList(opened.store, { email: str("email"), json });
    case "backup":
      if (!opened.sqlite)
        return failure(
          json,
          "on PostgreSQL, back up with pg_dump (docs/postgresql.md); waybill backup copies a SQLite file.",
        );
      return backup(opened.sqlite, positionals[0], { json });
    default:
      throw new UsageError(`unknown command '${name}'`);
  }
}

/** Commands that only read or change what exists: a mistyped --db must not create an empty database for them. */
const NEEDS_EXISTING_DATABASE = new Set([
  "accounts list",
  "accounts set-tier",
  "accounts set-password",
  "keys create",
  "keys revoke",
  "data status",
  "receipts verify",
  "backup",
]);

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--version")) {
    console.log(`waybill ${VERSION}`);
    return EXIT.ok;
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(helpFor(argv.filter((arg) => !arg.startsWith("-"))));
    return EXIT.ok;
  }
  const command = parseCommand(argv);
  if (command.name === "serve") {
    // Loaded only to serve: the server's modules (place index, skills) are heavy for a one-shot command.
    const { serve } = await import("./cli/serve.ts");
    await serve(serveConfig(command.values as Record<string, string | undefined>, process.env));
    return -1; // keeps running until a signal
  }
  if (command.name === "verify") {
    // Offline: no database is opened or created.
    const flag = (name: string) =>
      typeof command.values[name] === "string" ? (command.values[name] as string) : undefined;
    const result = verifyCommand({
      receipt: flag("receipt"),
      checkpoint: flag("checkpoint"),
      key: flag("key"),
      response: flag("response"),
      json: command.values.json === true,
    });
    (result.exitCode === EXIT.ok ? console.log : console.error)(result.output);
    return result.exitCode;
  }
  const location = resolveDatabase(command.values as { db?: string; database?: string }, process.env);
  if (command.name === "migrate")
    return printed(await migrateCommand(location, { json: command.values.json === true }));
  if (location.dialect === "sqlite" && NEEDS_EXISTING_DATABASE.has(command.name) && !existsSync(location.file)) {
    throw new ConfigError(`there is no database at ${resolve(location.file)}; check --db or WAYBILL_DB.`);
  }
  // `accounts create` may create the database: its arguments are checked first, so a mistake leaves no file.
  const accountRequest = command.name === "accounts create" ? await accountsCreateArguments(command.values) : undefined;
  const opened = await openStore(location);
  try {
    if (accountRequest) {
      const publicUrl = await linkOrigin(command.values, opened.store);
      return printed(await accountsCreate(opened.store, systemClock, { ...accountRequest, publicUrl }));
    }
    return printed(await runCommand(opened, command.name, command.values, command.positionals));
  } finally {
    await opened.close();
  }
}

function printed(result: CommandResult): number {
  (result.exitCode === EXIT.ok ? console.log : console.error)(result.output);
  return result.exitCode;
}

const json = Bun.argv.includes("--json");
try {
  const exitCode = await main(Bun.argv.slice(2));
  if (exitCode >= 0) process.exit(exitCode);
} catch (error) {
  if (error instanceof UsageError || error instanceof ArgumentError) {
    console.error(errorOutput(json, "bad_arguments", error.message));
    process.exit(EXIT.usage);
  }
  if (error instanceof ConfigError || error instanceof AccessError) {
    console.error(errorOutput(json, "refused", error.message));
    process.exit(EXIT.failed);
  }
  console.error(errorOutput(json, "failed", `unexpected error: ${(error as Error).message}`));
  process.exit(EXIT.failed);
}
