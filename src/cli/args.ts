import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./result.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON: Options = {
  db: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
};

/** Flags each command accepts beyond --db, --json and --help. Anything else is refused. */
export const COMMAND_OPTIONS: Record<string, Options> = {
  serve: { port: { type: "string" }, host: { type: "string" }, limits: { type: "string" }, "allow-private-webhooks": { type: "boolean" } },
  "accounts create": {
    email: { type: "string" },
    tier: { type: "string" },
    admin: { type: "boolean" },
    "password-stdin": { type: "boolean" },
  },
  "accounts set-tier": { email: { type: "string" }, tier: { type: "string" } },
  "accounts list": {},
  "keys create": { email: { type: "string" }, scopes: { type: "string" } },
  "keys revoke": { email: { type: "string" } },
  "data status": {},
  "data import": {},
  "receipts verify": {},
  backup: {},
  "webhooks add": { email: { type: "string" }, url: { type: "string" }, events: { type: "string" }, "allow-private-webhooks": { type: "boolean" } },
  "webhooks list": { email: { type: "string" } },
};

export const USAGE = `waybill — freight cost-basis rates with signed receipts

usage: waybill [command] [flags]

  serve                      start the server (default)  --port P --host H --limits FILE [--allow-private-webhooks]
  accounts create            --email E [--tier T] [--admin] [--password-stdin]
  accounts set-tier          --email E --tier T
  accounts list
  keys create                --email E [--scopes rate-lookup,fuel-surcharge]   (prints the key once)
  keys revoke                --email E
  data status
  data import SOURCE FILE    SOURCE: eia | fred | bls | ams
  receipts verify            walk the whole receipt chain
  backup FILE                consistent copy of the live database
  webhooks add               --email E --url U [--events alert.triggered,...] [--allow-private-webhooks]  (prints the secret once)
  webhooks list              --email E

every command: --db FILE (env WAYBILL_DB, default ./waybill.db), --json
exit codes: 0 done, 1 refused or failed, 2 bad arguments`;

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
  const name = pair && COMMAND_OPTIONS[pair] ? pair : first && COMMAND_OPTIONS[first] ? first : first ? undefined : "serve";
  if (!name) throw new UsageError(`unknown command '${words.slice(0, 2).join(" ")}'; see 'waybill --help'`);
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...COMMON, ...COMMAND_OPTIONS[name] },
      allowPositionals: true,
      strict: true,
    });
    const nameWords = name.split(" ").length;
    return { name, values: values as ParsedCommand["values"], positionals: positionals.slice(name === "serve" && !first ? 0 : nameWords) };
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} (see 'waybill ${name} --help')`);
  }
}
