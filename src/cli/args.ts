import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Command, Values } from "./command.ts";
import { UsageError } from "./result.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Flags every command accepts. */
const COMMON: Options = {
  db: { type: "string" },
  database: { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
};

const optionsOf = (command: Command): Options => ({
  ...COMMON,
  ...Object.fromEntries(Object.entries(command.flags).map(([name, flag]) => [name, { type: flag.type }])),
});

/**
 * The words of argv that are not flags nor a flag's value: `--db x.db accounts list` → accounts, list;
 * `--port 8080` → none. A flag taking a value under any command takes the next argument.
 */
export function commandWords(commands: readonly Command[], argv: readonly string[]): string[] {
  const takesValue = new Set(
    commands.flatMap((command) =>
      Object.entries(optionsOf(command))
        .filter(([, option]) => option.type === "string")
        .map(([name]) => `--${name}`),
    ),
  );
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (takesValue.has(arg)) i++;
    else if (!arg.startsWith("-")) words.push(arg);
  }
  return words;
}

export interface ParsedCommand {
  command: Command;
  values: Values;
  positionals: string[];
}

/** argv (without the program) → the command and its flags; UsageError on anything unknown. No words: serve. */
export function parseCommand(commands: readonly Command[], argv: string[]): ParsedCommand {
  const words = commandWords(commands, argv);
  const named = (name: string | undefined) => commands.find((command) => command.name === name);
  const command = words.length === 0 ? named("serve") : (named(words.slice(0, 2).join(" ")) ?? named(words[0]));
  if (!command) throw new UsageError(`unknown command '${words.slice(0, 2).join(" ")}'; see 'waybill --help'`);
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: optionsOf(command),
      allowPositionals: true,
      strict: true,
    });
    return {
      command,
      values: values as Values,
      positionals: positionals.slice(words.length === 0 ? 0 : command.name.split(" ").length),
    };
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} (see 'waybill ${command.name} --help')`);
  }
}
