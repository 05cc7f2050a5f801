import { afterAll, beforeAll } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const BINARY = resolve(import.meta.dir, "../../dist/waybill");

/** The compiled binary, built once if this run has not built it yet. */
export async function ensureBinary(): Promise<string> {
  if (!existsSync(BINARY)) {
    const build = Bun.spawnSync(["bun", "run", "build"], {
      cwd: resolve(import.meta.dir, "../.."),
      stdout: "inherit",
      stderr: "inherit",
    });
    if (build.exitCode !== 0) throw new Error("bun run build failed");
  }
  return BINARY;
}

/** A fresh empty folder holding only a copy of the binary. */
export async function binaryInEmptyFolder(): Promise<{ dir: string; exe: string }> {
  const binary = await ensureBinary();
  const dir = mkdtempSync(join(tmpdir(), "waybill-e2e-"));
  const exe = join(dir, "waybill");
  copyFileSync(binary, exe);
  Bun.spawnSync(["chmod", "+x", exe]);
  return { dir, exe };
}

/** For a whole test file: a fresh folder with the binary, made before the first test and removed after the last. */
export function binaryFolderForSuite(): { readonly dir: string; readonly exe: string } {
  const folder = { dir: "", exe: "" };
  beforeAll(async () => {
    Object.assign(folder, await binaryInEmptyFolder());
  }, 240_000);
  afterAll(() => {
    if (folder.dir) rmSync(folder.dir, { recursive: true, force: true });
  });
  return folder;
}

export interface RunningServer {
  url: string;
  process: Bun.Subprocess<"ignore", "pipe", "pipe">;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/**
 * Start `waybill serve` and wait (bounded) for its "listening on" line. Offline unless the test's env
 * says otherwise (WAYBILL_OFFLINE=0 with every source's URL on a local server): no test reaches the internet.
 */
export async function startBinary(
  exe: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<RunningServer> {
  const child = Bun.spawn([exe, "serve", "--port", "0", ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: options.cwd, WAYBILL_OFFLINE: "1", ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  // One drain loop for the whole life of the child, so no chunk is lost and the pipe never fills.
  void (async () => {
    const decoder = new TextDecoder();
    const reader = child.stdout.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
  })();
  const deadline = Date.now() + 20_000;
  let url: string | undefined;
  while (!url && Date.now() < deadline && child.exitCode === null) {
    await Bun.sleep(50);
    url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
  }
  if (!url) {
    child.kill("SIGKILL");
    throw new Error(`server did not start: ${text}${await new Response(child.stderr).text()}`);
  }
  return {
    url,
    process: child,
    output: () => text,
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      return await child.exited;
    },
  };
}

/** Run one CLI command of the binary to completion. */
export function runCli(exe: string, args: string[], cwd: string, stdin?: string) {
  const result = Bun.spawnSync([exe, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: cwd, WAYBILL_OFFLINE: "1" },
    stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
  });
  return { exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/**
 * For a test file: a fresh folder with a copy of the binary before its tests, removed after them.
 * The returned object's fields are filled once the file's beforeAll has run.
 */
export function binaryFolderForFile(): { dir: string; exe: string } {
  const folder = { dir: "", exe: "" };
  beforeAll(async () => {
    Object.assign(folder, await binaryInEmptyFolder());
  }, 240_000);
  afterAll(() => rmSync(folder.dir, { recursive: true, force: true }));
  return folder;
}
