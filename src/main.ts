import { systemClock } from "./clock.ts";
import { accountsCreate, accountsList, accountsSetTier } from "./cli/accounts.ts";
import { parseCommand, USAGE } from "./cli/args.ts";
import { backup } from "./cli/backup.ts";
import { dataImport, dataStatus } from "./cli/data.ts";
import { keysCreate, keysRevoke } from "./cli/keys.ts";
import { receiptsVerifyCommand } from "./cli/receipts.ts";
import { EXIT, UsageError, type CommandResult } from "./cli/result.ts";
import { serve } from "./cli/serve.ts";
import { webhooksAdd, webhooksList } from "./cli/webhooks.ts";
import { AccessError } from "./access/accounts.ts";
import { ConfigError, resolveDbFile, serveConfig } from "./config.ts";
import { openDatabaseFile } from "./db/open.ts";
import type { Db } from "./db/client.ts";

async function readStdin(): Promise<string> {
  return (await Bun.stdin.text()).replace(/\r?\n$/, "");
}

async function runCommand(db: Db, name: string, values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<CommandResult> {
  const json = values.json === true;
  const str = (flag: string) => (typeof values[flag] === "string" ? (values[flag] as string) : undefined);
  switch (name) {
    case "accounts create":
      return accountsCreate(db, systemClock, {
        email: str("email"),
        tier: str("tier"),
        admin: values.admin === true,
        password: values["password-stdin"] ? await readStdin() : undefined,
        json,
      });
    case "accounts set-tier":
      return accountsSetTier(db, { email: str("email"), tier: str("tier"), json });
    case "accounts list":
      return accountsList(db, { json });
    case "keys create":
      return keysCreate(db, systemClock, { email: str("email"), scopes: str("scopes"), json });
    case "keys revoke":
      return keysRevoke(db, systemClock, { email: str("email"), json });
    case "data status":
      return dataStatus(db, { json });
    case "data import": {
      const [source, file] = positionals;
      if (!source || !file) throw new UsageError("data import needs SOURCE and FILE: waybill data import eia FILE");
      return dataImport(db, source, file, { json });
    }
    case "receipts verify":
      return receiptsVerifyCommand(db, { json });
    case "webhooks add":
      return webhooksAdd(db, systemClock, { email: str("email"), url: str("url"), events: str("events"), allowPrivate: values["allow-private-webhooks"] === true, json });
    case "webhooks list":
      return webhooksList(db, { email: str("email"), json });
    case "backup":
      return backup(db, positionals[0], { json });
    default:
      throw new UsageError(`unknown command '${name}'`);
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--version")) {
    console.log("waybill 0.1.0");
    return EXIT.ok;
  }
  const command = parseCommand(argv);
  if (command.values.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  if (command.name === "serve") {
    await serve(serveConfig(command.values as Parameters<typeof serveConfig>[0], process.env));
    return -1; // keeps running until a signal
  }
  const db = openDatabaseFile(resolveDbFile(command.values.db as string | undefined, process.env));
  try {
    const result = await runCommand(db, command.name, command.values, command.positionals);
    (result.exitCode === EXIT.ok ? console.log : console.error)(result.output);
    return result.exitCode;
  } finally {
    db.$client.close();
  }
}

try {
  const exitCode = await main(Bun.argv.slice(2));
  if (exitCode >= 0) process.exit(exitCode);
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`waybill: ${error.message}`);
    process.exit(EXIT.usage);
  }
  if (error instanceof ConfigError || error instanceof AccessError) {
    console.error(`waybill: ${error.message}`);
    process.exit(EXIT.failed);
  }
  console.error(`waybill: unexpected error: ${(error as Error).message}`);
  process.exit(EXIT.failed);
}
