import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { AccessError } from "./access/accounts.ts";
import { commandWords, parseCommand } from "./cli/args.ts";
import type { Command, Invocation, Values, WithStore } from "./cli/command.ts";
import { COMMANDS, versionLine } from "./cli/commands.ts";
import { helpFor, usage } from "./cli/help.ts";
import { errorOutput, EXIT, type CommandResult, UsageError } from "./cli/result.ts";
import { ArgumentError, DEFAULT_HOST, DEFAULT_PORT, parsePublicUrl, resolveDatabase, serveConfig } from "./config.ts";
import { rememberedLinkOrigin } from "./dashboard/index.ts";
import type { Store } from "./db/client.ts";
import { openStore } from "./db/open.ts";
import { ConfigError } from "./errors.ts";

function invocationOf(values: Values, positionals: string[]): Invocation {
  const flag = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  return {
    values,
    positionals,
    json: values.json === true,
    flag,
    givenLinkOrigin: () => parsePublicUrl(flag("public-url") ?? process.env.WAYBILL_PUBLIC_URL)?.origin,
  };
}

/** Where printed links point: the given address, where `serve` last said it listens on this database, or the default. */
async function linkOrigin(invocation: Invocation, store: Store): Promise<string> {
  return (
    invocation.givenLinkOrigin() ??
    (await rememberedLinkOrigin(store)) ??
    `http://${process.env.WAYBILL_HOST ?? DEFAULT_HOST}:${process.env.WAYBILL_PORT ?? DEFAULT_PORT}`
  );
}

async function runOnStore(command: WithStore, invocation: Invocation): Promise<CommandResult> {
  const location = resolveDatabase(invocation.values as { db?: string; database?: string }, process.env);
  if (location.dialect === "sqlite" && command.database === "existing" && !existsSync(location.file)) {
    // A mistyped --db must not create an empty database for a command that only reads or changes what exists.
    throw new ConfigError(`there is no database at ${resolve(location.file)}; check --db or WAYBILL_DB.`);
  }
  if (location.dialect !== "sqlite" && command.notOnPostgres) throw new ConfigError(command.notOnPostgres);
  // Arguments are checked first (`accounts create` may create the database), so a mistake leaves no file.
  const onStore = await command.start(invocation);
  const opened = await openStore(location);
  try {
    return await onStore({
      ...invocation,
      store: opened.store,
      sqlite: opened.sqlite,
      linkOrigin: () => linkOrigin(invocation, opened.store),
    });
  } finally {
    await opened.close();
  }
}

async function run(command: Command, invocation: Invocation): Promise<CommandResult | "serving"> {
  switch (command.database) {
    case "server": {
      // Loaded only to serve: the server's modules (place index, skills) are heavy for a one-shot command.
      const { serve } = await import("./cli/serve.ts");
      await serve(serveConfig(invocation.values as Record<string, string | undefined>, process.env));
      return "serving";
    }
    case "none":
      return command.run(invocation);
    case "location":
      return command.run(invocation, resolveDatabase(invocation.values, process.env));
    default:
      return runOnStore(command, invocation);
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--version")) {
    console.log(versionLine());
    return EXIT.ok;
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(helpFor(COMMANDS, commandWords(COMMANDS, argv)) ?? usage(COMMANDS));
    return EXIT.ok;
  }
  const { command, values, positionals } = parseCommand(COMMANDS, argv);
  const outcome = await run(command, invocationOf(values, positionals));
  if (outcome === "serving") return -1; // keeps running until a signal
  (outcome.exitCode === EXIT.ok ? console.log : console.error)(outcome.output);
  return outcome.exitCode;
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
