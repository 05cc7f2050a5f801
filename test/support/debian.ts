import { existsSync } from "node:fs";

/** A tool a suite needs from Debian (chromium, promtool): installed with apt-get when missing; false if that fails too. */
export function ensureDebianTool(path: string, packageName: string): boolean {
  if (existsSync(path)) return true;
  const install = Bun.spawnSync(["bash", "-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packageName}`], {
    stdout: "ignore",
    stderr: "ignore",
  });
  return install.exitCode === 0 && existsSync(path);
}
