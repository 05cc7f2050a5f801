import { existsSync } from "node:fs";

/** `apt-get install` one Debian package quietly; true when apt-get succeeded. */
export function installDebianPackage(packageName: string): boolean {
  const install = Bun.spawnSync(
    ["bash", "-c", `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packageName}`],
    {
      stdout: "ignore",
      stderr: "ignore",
    },
  );
  return install.exitCode === 0;
}

/** A tool a suite needs from Debian (chromium, promtool): installed with apt-get when missing; false if that fails too. */
export function ensureDebianTool(path: string, packageName: string): boolean {
  if (existsSync(path)) return true;
  return installDebianPackage(packageName) && existsSync(path);
}
