import { describe, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ensureDebianTool } from "../support/debian.ts";
import { binaryFolderForSuite, runCli, startBinary } from "../support/binary.ts";

/** From Debian's prometheus package, installed when missing. */
const PROMTOOL = "/usr/bin/promtool";

const suite = binaryFolderForSuite();

function runServe(args: string[]) {
  const result = Bun.spawnSync([suite.exe, "serve", ...args], {
    cwd: suite.dir,
    env: { PATH: process.env.PATH ?? "", HOME: suite.dir, WAYBILL_OFFLINE: "1" },
    timeout: 20_000,
  });
  return { exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

describe("one server per database, one per port", () => {
  test("a second serve on the same file refuses in one line; the CLI still works beside the live server", async () => {
    const first = await startBinary(suite.exe, ["--db", "one.db"], { cwd: suite.dir });
    const second = runServe(["--port", "0", "--db", "one.db"]);
    expect(second.exitCode).toBe(1);
    expect(second.stdout).not.toContain("listening");
    expect(second.stderr.trim().split("\n")).toHaveLength(1);
    expect(second.stderr).toContain("another waybill server is already using");

    const created = runCli(suite.exe, ["accounts", "create", "--email", "a@example.com", "--db", "one.db"], suite.dir);
    expect(created.exitCode).toBe(0);
    expect(runCli(suite.exe, ["accounts", "list", "--db", "one.db"], suite.dir).stdout).toContain("a@example.com");
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect(await first.stop()).toBe(0);

    // the lock goes with the process, even on kill -9
    const again = await startBinary(suite.exe, ["--db", "one.db"], { cwd: suite.dir });
    expect(await again.stop("SIGKILL")).not.toBe(0);
    const afterKill = await startBinary(suite.exe, ["--db", "one.db"], { cwd: suite.dir });
    expect(await afterKill.stop()).toBe(0);
  }, 60_000);

  test("a symlink or a hard link to the database does not get a second server past the lock", async () => {
    const first = await startBinary(suite.exe, ["--db", "linked.db"], { cwd: suite.dir });
    const key = runCli(
      suite.exe,
      ["accounts", "create", "--email", "l@example.com", "--tier", "starter", "--db", "linked.db"],
      suite.dir,
    );
    expect(key.exitCode).toBe(0);
    mkdirSync(join(suite.dir, "elsewhere"), { recursive: true });
    symlinkSync(join(suite.dir, "linked.db"), join(suite.dir, "symlinked.db"));
    linkSync(join(suite.dir, "linked.db"), join(suite.dir, "elsewhere", "hardlinked.db"));
    for (const other of ["symlinked.db", "elsewhere/hardlinked.db"]) {
      const second = runServe(["--port", "0", "--db", other]);
      expect({ other, exitCode: second.exitCode }).toEqual({ other, exitCode: 1 });
      expect(second.stdout).not.toContain("listening");
      expect(second.stderr).toContain("another waybill server is already using");
      // No second WAL was started beside the first server's.
      expect(existsSync(join(suite.dir, `${other}-wal`))).toBe(false);
    }
    // The first server still answers, from its own file.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${first.url}/signin`)).status).toBe(200);
    expect(await first.stop()).toBe(0);
    // Once it is gone, the hard link's name is a way to serve the same file.
    const viaLink = await startBinary(suite.exe, ["--db", "elsewhere/hardlinked.db"], { cwd: suite.dir });
    expect((await fetch(`${viaLink.url}/readyz`)).status).toBe(200);
    expect(await viaLink.stop()).toBe(0);
  }, 60_000);

  test("a second serve on the same port fails as 'port in use'", async () => {
    const first = await startBinary(suite.exe, ["--db", "a.db"], { cwd: suite.dir });
    const port = new URL(first.url).port;
    const second = runServe(["--port", port, "--db", "b.db"]);
    expect(second.exitCode).toBe(1);
    expect(second.stdout).not.toContain("listening");
    expect(second.stderr.trim()).toBe(`waybill: port ${port} on 127.0.0.1 is already in use.`);
    expect(await first.stop()).toBe(0);
  }, 60_000);
});

describe("/metrics", () => {
  test.skipIf(!ensureDebianTool(PROMTOOL, "prometheus"))(
    "passes promtool check metrics, with standard process names and domain metrics",
    async () => {
      const server = await startBinary(suite.exe, ["--db", "metrics.db"], { cwd: suite.dir });
      runCli(
        suite.exe,
        ["accounts", "create", "--email", "m@example.com", "--tier", "starter", "--db", "metrics.db"],
        suite.dir,
      );
      const key = JSON.parse(
        runCli(suite.exe, ["keys", "create", "--email", "m@example.com", "--json", "--db", "metrics.db"], suite.dir)
          .stdout,
      ).key;
      const call = (body: unknown) =>
        fetch(`${server.url}/v1/rates/lookup`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      expect((await call({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" })).status).toBe(200);
      expect((await call({ origin: "Chicago, IL" })).status).toBe(400);
      const text = await (await fetch(`${server.url}/metrics`)).text();
      await server.stop();

      const check = Bun.spawnSync([PROMTOOL, "check", "metrics"], { stdin: Buffer.from(text) });
      expect(check.stdout.toString() + check.stderr.toString()).toBe("");
      expect(check.exitCode).toBe(0);
      for (const name of [
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "process_start_time_seconds",
        "process_open_fds",
      ]) {
        expect(text).toMatch(new RegExp(`^${name} \\d`, "m"));
      }
      expect(text).not.toContain("waybill_process_");
      expect(text).toContain('waybill_skill_answers_total{skill="rate-lookup"} 1');
      expect(text).toContain('waybill_skill_refusals_total{skill="rate-lookup",reason="INVALID_REQUEST"} 1');
      expect(text).toContain("waybill_receipts_appended_total 1");
      expect(text).toContain("waybill_group_commit_batch_writes_count 1");
      expect(text).toMatch(/^waybill_reference_data_age_seconds\{series="[A-Z0-9_]+"\} \d+/m);
      const [, rss] = /^process_resident_memory_bytes (\d+)/m.exec(text) ?? [];
      const [, heap] = /^process_heap_bytes (\d+)/m.exec(text) ?? [];
      expect(Number(heap)).toBeLessThan(Number(rss));
    },
    60_000,
  );
});
