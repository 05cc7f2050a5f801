import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { COMMANDS } from "../../src/cli/commands.ts";
import { VERSION } from "../../src/version.ts";
import { binaryFolderForSuite, runCli, startBinary } from "../support/binary.ts";
import { defined } from "../support/defined.ts";

const suite = binaryFolderForSuite();

describe("the compiled binary's command line", () => {
  test("every command and every command group has --help, exit 0", () => {
    for (const name of [...COMMANDS.map((command) => command.name), "accounts", "keys", "data", "receipts"]) {
      const result = runCli(suite.exe, [...name.split(" "), "--help"], suite.dir);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain(`waybill ${name}`);
      expect(result.stderr).toBe("");
    }
    expect(runCli(suite.exe, ["--help"], suite.dir).stdout).toContain("accounts set-password");
  }, 120_000);

  test("read-only commands refuse a database file that does not exist, and create none", () => {
    for (const args of [
      ["accounts", "list"],
      ["data", "status"],
      ["receipts", "verify"],
      ["keys", "revoke", "--email", "a@b.io"],
      ["backup", "copy.db"],
    ]) {
      const result = runCli(suite.exe, [...args, "--db", "typo.db"], suite.dir);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain("there is no database at");
      expect(existsSync(join(suite.dir, "typo.db"))).toBe(false);
    }
  }, 60_000);

  test("accounts create with bad arguments is refused before a database file is created", () => {
    for (const [args, stdin, message] of [
      [["accounts", "create"], undefined, "needs --email"],
      [["accounts", "create", "--email", "not-an-email"], undefined, "is not an email address"],
      [["accounts", "create", "--email", "a@b.io", "--tier", "gold"], undefined, "Unknown tier 'gold'"],
      [["accounts", "create", "--email", "a@b.io", "--password-stdin"], "short\n", "at least 10 characters"],
      [
        ["accounts", "create", "--email", "a@b.io", "--public-url", "ftp://x"],
        undefined,
        "must be http:// or https://",
      ],
    ] as [string[], string | undefined, string][]) {
      const result = runCli(suite.exe, [...args, "--db", "never.db"], suite.dir, stdin);
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 2 });
      expect(result.stderr).toContain(message);
      for (const file of ["never.db", "never.db-wal", "never.db-shm"]) {
        expect(existsSync(join(suite.dir, file))).toBe(false);
      }
    }
    const good = runCli(suite.exe, ["accounts", "create", "--email", "a@b.io", "--db", "never.db"], suite.dir);
    expect(good.exitCode).toBe(0);
    expect(existsSync(join(suite.dir, "never.db"))).toBe(true);
  }, 60_000);

  test("under --json every failure is one line of the same shape on stderr, with the README's exit codes", () => {
    runCli(suite.exe, ["accounts", "create", "--email", "j@example.com", "--db", "json.db"], suite.dir);
    const cases = [
      { args: ["accounts", "create", "--email", "j@example.com", "--tier", "gold"], code: 2, error: "bad_arguments" },
      { args: ["accounts", "create", "--email", "j@example.com"], code: 1, error: "refused" },
      { args: ["keys", "revoke", "--email", "j@example.com"], code: 1, error: "refused" },
      { args: ["keys", "create", "--email", "j@example.com", "--scopes", "teleport"], code: 2, error: "bad_arguments" },
      { args: ["data", "import", "nope", "x.csv"], code: 2, error: "bad_arguments" },
      { args: ["data", "import", "eia", "missing.csv"], code: 1, error: "refused" },
      { args: ["accounts", "frobnicate"], code: 2, error: "bad_arguments" },
    ];
    for (const { args, code, error } of cases) {
      const result = runCli(suite.exe, [...args, "--json", "--db", "json.db"], suite.dir);
      expect({ args, code: result.exitCode }).toEqual({ args, code });
      const lines = result.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      const body = JSON.parse(defined(lines[0], "the error line"));
      expect(Object.keys(body).sort()).toEqual(["error", "message"]);
      expect(body.error).toBe(error);
      expect(result.stdout).toBe("");
    }
  }, 60_000);

  test("--admin without a password prints a one-time link that sets it; set-password works from stdin and audits", async () => {
    const server = await startBinary(suite.exe, ["--db", "admin.db"], { cwd: suite.dir });
    const created = runCli(
      suite.exe,
      [
        "accounts",
        "create",
        "--email",
        "root@example.com",
        "--admin",
        "--public-url",
        server.url,
        "--json",
        "--db",
        "admin.db",
      ],
      suite.dir,
    );
    expect(created.exitCode).toBe(0);
    const link = JSON.parse(created.stdout).password_link as string;
    expect(link).toStartWith(`${server.url}/password/`);
    expect((await fetch(link)).status).toBe(200);
    const form = (fields: Record<string, string>) => ({
      method: "POST",
      redirect: "manual" as const,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const set = await fetch(
      link,
      form({ password: "the admin's own passphrase", password_again: "the admin's own passphrase" }),
    );
    expect(set.status).toBe(303);
    expect((await fetch(link)).status).toBe(404);
    const signIn = (password: string) => fetch(`${server.url}/signin`, form({ email: "root@example.com", password }));
    expect((await signIn("the admin's own passphrase")).status).toBe(303);

    const fromStdin = runCli(
      suite.exe,
      ["accounts", "set-password", "--email", "root@example.com", "--password-stdin", "--db", "admin.db"],
      suite.dir,
      "a password from the shell\n",
    );
    expect(fromStdin.exitCode).toBe(0);
    expect((await signIn("the admin's own passphrase")).status).toBe(401);
    expect((await signIn("a password from the shell")).status).toBe(303);
    const tooShort = runCli(
      suite.exe,
      ["accounts", "set-password", "--email", "root@example.com", "--password-stdin", "--db", "admin.db"],
      suite.dir,
      "short\n",
    );
    expect(tooShort.exitCode).toBe(2);
    await server.stop();
  }, 60_000);

  test("`waybill help` lists every command; `help COMMAND` is that command's --help; unknown is exit 2", () => {
    const list = runCli(suite.exe, ["help"], suite.dir);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toBe(runCli(suite.exe, ["--help"], suite.dir).stdout);
    for (const { name } of COMMANDS)
      expect(list.stdout.split("\n").some((line) => `${line} `.startsWith(`  ${name} `))).toBe(true);

    const one = runCli(suite.exe, ["help", "accounts", "create"], suite.dir);
    expect(one.exitCode).toBe(0);
    expect(one.stdout).toStartWith("usage: waybill accounts create --email E");
    expect(one.stdout).toBe(runCli(suite.exe, ["accounts", "create", "--help"], suite.dir).stdout);
    expect(runCli(suite.exe, ["help", "keys"], suite.dir).stdout).toContain("keys rotate-signing");

    const unknown = runCli(suite.exe, ["help", "frobnicate"], suite.dir);
    expect([unknown.exitCode, unknown.stderr.trim()]).toEqual([
      2,
      "waybill: unknown command 'frobnicate'; see 'waybill help'",
    ]);
    expect(existsSync(join(suite.dir, "waybill.db"))).toBe(false);
  });

  test("`waybill version` says what --version says: package.json's version", () => {
    const version = runCli(suite.exe, ["version"], suite.dir);
    expect([version.exitCode, version.stdout, version.stderr]).toEqual([0, `waybill ${VERSION}\n`, ""]);
    expect(runCli(suite.exe, ["--version"], suite.dir).stdout).toBe(`waybill ${VERSION}\n`);
    expect(JSON.parse(runCli(suite.exe, ["version", "--json"], suite.dir).stdout)).toEqual({ version: VERSION });
  });

  test("flags without a command serve: `waybill --port P` listens on P", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port;
    probe.stop(true);
    const child = Bun.spawn([suite.exe, "--port", String(port), "--db", "flags.db"], {
      cwd: suite.dir,
      env: { PATH: process.env.PATH ?? "", HOME: suite.dir, WAYBILL_OFFLINE: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      let answer: Response | undefined;
      for (const deadline = Date.now() + 20_000; !answer && Date.now() < deadline && child.exitCode === null; ) {
        await Bun.sleep(100);
        answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      }
      expect(answer?.status).toBe(200);
      expect(await answer?.json()).toEqual({ status: "ok" });
      expect(existsSync(join(suite.dir, "flags.db"))).toBe(true);
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
  }, 60_000);
});
