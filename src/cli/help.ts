import type { Command, Flag } from "./command.ts";

const FOOTER = `every command: --db FILE (env WAYBILL_DB, default ./waybill.db) or --database postgres://… (env
WAYBILL_DATABASE_URL; docs/postgresql.md), --json, --help
exit codes: 0 done, 1 refused or failed, 2 bad arguments; errors are one line on stderr
(with --json: {"error": CODE, "message": TEXT})`;

const flagLabel = (name: string, flag: Flag): string => `--${name}${flag.value ? ` ${flag.value}` : ""}`;

/** The usage line's arguments: operands, then each flag (bracketed unless required). */
export function synopsis(command: Command): string {
  const flags = Object.entries(command.flags).map(([name, flag]) =>
    flag.required ? flagLabel(name, flag) : `[${flagLabel(name, flag)}]`,
  );
  return [command.operands, ...flags].filter(Boolean).join(" ");
}

const HELP_COLUMN = 24;

function flagLines(command: Command): string[] {
  return Object.entries(command.flags).flatMap(([name, flag]) => {
    if (!flag.help) return [];
    const label = `  ${flagLabel(name, flag)}`;
    const lines = flag.help.split("\n");
    // A label too long for its column gets a line of its own.
    const head = label.length < HELP_COLUMN ? [`${label.padEnd(HELP_COLUMN)}${lines.shift()}`] : [label];
    return [...head, ...lines.map((line) => `${" ".repeat(HELP_COLUMN)}${line}`)];
  });
}

const listing = (commands: readonly Command[]): string =>
  commands.map((command) => `  ${command.name.padEnd(HELP_COLUMN)} ${synopsis(command)}`.trimEnd()).join("\n");

/** `waybill --help`: every command with its usage. */
export const usage = (commands: readonly Command[]): string =>
  `waybill — freight cost-basis rates with signed receipts

usage: waybill [command] [flags]

${listing(commands)}

${FOOTER}`;

/**
 * `waybill NAME --help` and `waybill help NAME`: a command's flags, or a group's commands (`waybill keys --help`),
 * or the whole list without words; undefined for words that name neither.
 */
export function helpFor(commands: readonly Command[], words: readonly string[]): string | undefined {
  if (words.length === 0) return usage(commands);
  const command =
    commands.find((candidate) => candidate.name === words.slice(0, 2).join(" ")) ??
    commands.find((candidate) => candidate.name === words[0]);
  if (command) {
    const body = [command.summary, ...flagLines(command), ...(command.notes ? [command.notes] : [])].join("\n");
    const line = `usage: waybill ${command.name} ${synopsis(command)}`.trimEnd();
    return `${line}\n\n${body}\n\n${FOOTER}`;
  }
  const group = commands.filter((candidate) => candidate.name.startsWith(`${words[0]} `));
  if (group.length > 0) return `waybill ${words[0]} commands:\n\n${listing(group)}\n\n${FOOTER}`;
  return undefined;
}

/** The README's command table: one row per command, its operands (flags are in its --help) and summary. */
export const commandTable = (commands: readonly Command[]): string =>
  [
    "| command | what it does |",
    "|---|---|",
    ...commands.map((command) => {
      const call = [command.name, command.operands].filter(Boolean).join(" ");
      return `| \`${call.replaceAll("|", "\\|")}\` | ${command.summary.replaceAll("|", "\\|")} |`;
    }),
  ].join("\n");
