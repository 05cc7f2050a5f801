import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseCommand } from "../../src/cli/args.ts";
import { COMMANDS } from "../../src/cli/commands.ts";
import { commandTable, helpFor } from "../../src/cli/help.ts";
import { UsageError } from "../../src/cli/result.ts";

const README = resolve(import.meta.dir, "../../README.md");

describe("the CLI's one list of commands", () => {
  test("the README's command table is the one generated from the declarations", () => {
    const table = commandTable(COMMANDS);
    // On failure: paste the expected table (printed by this assertion) into README.md's "Command line" section.
    expect(readFileSync(README, "utf8")).toContain(`${table}\n`);
    expect(table.split("\n")).toHaveLength(COMMANDS.length + 2);
  });

  test("names are unique and every command has a summary and help", () => {
    const names = COMMANDS.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    for (const command of COMMANDS) {
      expect(command.summary.length).toBeGreaterThan(10);
      expect(helpFor(COMMANDS, command.name.split(" "))).toStartWith(`usage: waybill ${command.name}`);
    }
  });

  test("flags without a command are serve's; flags may come before the command", () => {
    const served = parseCommand(COMMANDS, ["--port", "8080", "--offline"]);
    expect(served.command.name).toBe("serve");
    expect(served.values).toMatchObject({ port: "8080", offline: true });
    expect(served.positionals).toEqual([]);
    const listed = parseCommand(COMMANDS, ["--db", "x.db", "accounts", "list", "--json"]);
    expect(listed.command.name).toBe("accounts list");
    expect(listed.values).toMatchObject({ db: "x.db", json: true });
    const help = parseCommand(COMMANDS, ["help", "accounts", "create"]);
    expect([help.command.name, help.positionals]).toEqual(["help", ["accounts", "create"]]);
  });

  test("an unknown command or a flag the command does not take is a usage error", () => {
    expect(() => parseCommand(COMMANDS, ["frobnicate"])).toThrow(UsageError);
    expect(() => parseCommand(COMMANDS, ["accounts", "list", "--tier", "x"])).toThrow("accounts list --help");
    expect(helpFor(COMMANDS, ["frobnicate"])).toBeUndefined();
  });
});
