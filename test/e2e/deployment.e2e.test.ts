/**
 * The committed systemd unit (deploy/waybill.service, docs/deployment.md) stays true to the binary:
 * systemd accepts it, its hardening keeps the exposure score low, and the compiled binary starts
 * and is ready with exactly the command and environment the unit gives it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { binaryFolderForFile, startBinary } from "../support/binary.ts";
import { ensureDebianTool } from "../support/debian.ts";
import { defined } from "../support/defined.ts";

const UNIT = resolve(import.meta.dir, "../../deploy/waybill.service");
const SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze";
/** systemd-analyze's exposure score times ten (0 = locked down, 100 = fully exposed): at most 2.0. */
const EXPOSURE_THRESHOLD = 20;

const folder = binaryFolderForFile();

/** The values of every `Name=` line of the unit, in order. */
function unitValues(text: string, name: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}=`))
    .map((line) => line.slice(name.length + 1));
}

describe("deploy/waybill.service", () => {
  const unit = readFileSync(UNIT, "utf8");

  test("the compiled binary starts and is ready with the unit's command and environment", async () => {
    const [execStart] = unitValues(unit, "ExecStart");
    const [program, ...args] = defined(execStart, "execStart").split(/\s+/);
    expect(program).toBe("/usr/local/bin/waybill");
    const env = Object.fromEntries(
      unitValues(unit, "Environment").map((pair) => pair.split("=", 2) as [string, string]),
    );
    expect(env.WAYBILL_DB).toBe("/var/lib/waybill/waybill.db");
    expect(unitValues(unit, "StateDirectory")).toEqual(["waybill"]); // systemd creates /var/lib/waybill for the database

    // startBinary adds `serve --port 0`; the unit's own port and database path are moved into the test folder.
    expect(args).toEqual(["serve"]);
    const server = await startBinary(folder.exe, [], {
      cwd: folder.dir,
      env: { ...env, WAYBILL_DB: join(folder.dir, "waybill.db"), WAYBILL_PORT: "0" },
    });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // WAYBILL_LOG_FORMAT=json from the unit: the access line of that probe is JSON.
      await Bun.sleep(100);
      const accessLine = server
        .output()
        .split("\n")
        .find((line) => line.includes('"route":"/readyz"'));
      expect(JSON.parse(accessLine ?? "null")).toMatchObject({ event: "request", status: 200 });
    } finally {
      expect(await server.stop("SIGTERM")).toBe(0);
    }
  }, 60_000);

  test.skipIf(!ensureDebianTool(SYSTEMD_ANALYZE, "systemd"))(
    "systemd accepts the unit, and its exposure score stays at most 2.0",
    () => {
      // verify needs ExecStart to name an executable that exists here: the compiled binary stands in.
      const copy = join(folder.dir, "waybill.service");
      writeFileSync(copy, unit.replace("/usr/local/bin/waybill", folder.exe));
      const verify = Bun.spawnSync([SYSTEMD_ANALYZE, "verify", copy], { stdout: "pipe", stderr: "pipe" });
      // Warnings about the unit (an unknown key, a bad value) name its file; other noise from the host does not.
      expect(verify.stderr.toString()).not.toContain("waybill.service:");
      expect(verify.exitCode).toBe(0);
      const security = Bun.spawnSync(
        [SYSTEMD_ANALYZE, "security", "--offline=yes", `--threshold=${EXPOSURE_THRESHOLD}`, copy],
        { stdout: "pipe", stderr: "pipe" },
      );
      expect(security.stdout.toString()).toContain("Overall exposure level for waybill.service");
      expect(security.exitCode).toBe(0);
    },
  );
});
