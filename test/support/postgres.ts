import { afterAll, beforeAll } from "bun:test";
import { SQL } from "bun";
import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { installDebianPackage } from "./debian.ts";
import { defined } from "./defined.ts";

/**
 * Throw-away PostgreSQL clusters for tests (docs/deployment.md names the versions the suite runs):
 * Debian's server binaries, a data directory of its own under the worktree's .tmp/, TCP on
 * 127.0.0.1 only with a password, the unix socket inside the same temporary folder.
 */

const DEBIAN_SERVERS = "/usr/lib/postgresql";
const OLDEST_SUPPORTED_MAJOR = 15;
const SUPERUSER = "waybill";
const TEMP_ROOT = resolve(import.meta.dir, "../../.tmp");

export interface PostgresCluster {
  /** `postgres://waybill:<password>@127.0.0.1:<port>/<database>`, as a replica would be given it. */
  readonly url: string;
  readonly port: number;
  readonly major: number;
  /** The temporary folder holding the data directory, the socket and the server log. */
  readonly folder: string;
  /** A further empty database in the same cluster; returns its URL. */
  createDatabase(name: string): string;
  /** The server's log so far (for a failing test's message). */
  log(): string;
  /** The postmaster's process id (the parent of one backend per connection). */
  serverPid(): number;
  /** Stop the server but keep its data (`fast`: connections are cut, as a restart or failover does); `resume()` starts it again. */
  halt(mode?: "fast" | "immediate"): void;
  /** Start a halted server again on the same port and data. */
  resume(): void;
  /**
   * Fail over to a copy: the server dies (`immediate`, as a lost machine), its data directory is
   * copied as a replicated disk or a file-system snapshot would hold it, and a new server starts
   * from the copy on the same address, recovering from its WAL, `downForMs` later (the callers of a
   * test in this process go on meanwhile). Later calls act on the copy.
   */
  failoverToCopy(downForMs?: number): Promise<void>;
  /** Stop the server and remove its folder; safe to call twice. */
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** The first database's name (default `waybill`). */
  database?: string;
  /**
   * Keep fsync and synchronous commit on, as production runs. Off by default: the tests kill
   * replicas, never the database server, and an unsynced cluster spares the shared machine's disk.
   */
  durable?: boolean;
  /** Extra postgresql.conf settings, e.g. `{ max_connections: 300 }`. */
  settings?: Record<string, string | number>;
}

interface ServerBinaries {
  bin: string;
  major: number;
}

/** The newest server under /usr/lib/postgresql/<major>/bin, installing Debian's `postgresql` when there is none. */
export function postgresServer(): ServerBinaries {
  const found = newestServer() ?? (installDebianPackage("postgresql") ? newestServer() : undefined);
  if (!found)
    throw new Error(
      `no PostgreSQL server under ${DEBIAN_SERVERS} and \`apt-get install postgresql\` did not provide one`,
    );
  if (found.major < OLDEST_SUPPORTED_MAJOR)
    throw new Error(`PostgreSQL ${found.major} is installed; Waybill needs ${OLDEST_SUPPORTED_MAJOR} or newer`);
  return found;
}

function newestServer(): ServerBinaries | undefined {
  if (!existsSync(DEBIAN_SERVERS)) return undefined;
  const majors = readdirSync(DEBIAN_SERVERS)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => b - a);
  for (const major of majors) {
    const bin = join(DEBIAN_SERVERS, String(major), "bin");
    if (["initdb", "pg_ctl", "createdb"].every((tool) => existsSync(join(bin, tool)))) return { bin, major };
  }
  return undefined;
}

/** initdb and pg_ctl refuse to run as root, so as root the cluster belongs to Debian's `postgres` user. */
function clusterOwner(): { run: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { run: [] };
  const id = (flag: string) => Number(Bun.spawnSync(["id", flag, "postgres"]).stdout.toString().trim());
  const uid = id("-u");
  const gid = id("-g");
  if (!Number.isInteger(uid) || uid <= 0)
    throw new Error("running as root, but there is no `postgres` user to own the test cluster");
  return { run: ["runuser", "-u", "postgres", "--"], uid, gid };
}

function run(command: string[], what: string): string {
  const result = Bun.spawnSync(command, {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" },
  });
  if (result.exitCode !== 0)
    throw new Error(`${what} failed (exit ${result.exitCode}): ${result.stderr.toString()}${result.stdout.toString()}`);
  return result.stdout.toString();
}

/** A port nobody listens on right now; the server may still lose a race for it, so start retries. */
async function freeLoopbackPort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

function serverSettings(folder: string, port: number, options: PostgresOptions): Record<string, string | number> {
  const speed: Record<string, string> = options.durable
    ? {}
    : { fsync: "off", synchronous_commit: "off", full_page_writes: "off" };
  return {
    listen_addresses: "'127.0.0.1'",
    port,
    unix_socket_directories: `'${folder}'`,
    max_connections: 200,
    ...speed,
    ...options.settings,
  };
}

/** A stopper that outlives a test process killed with SIGKILL: it waits for that process to vanish, then stops the server. */
function startWatchdog(stopCommand: string[], folder: string): Bun.Subprocess {
  const script = 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; shift 2; "$@" >/dev/null 2>&1; rm -rf "$0"';
  const watchdog = Bun.spawn(["bash", "-c", script, folder, String(process.pid), "-", ...stopCommand], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  watchdog.unref();
  return watchdog;
}

/** Start a fresh cluster with one database; stop it with `stop()` (or it stops itself when this process ends). */
export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresCluster> {
  const { bin, major } = postgresServer();
  const owner = clusterOwner();
  mkdirSync(TEMP_ROOT, { recursive: true });
  const folder = mkdtempSync(join(TEMP_ROOT, "pg-"));
  chmodSync(folder, 0o700);
  if (owner.uid !== undefined && owner.gid !== undefined) chownSync(folder, owner.uid, owner.gid);
  const dataDir = join(folder, "data");
  const logFile = join(folder, "server.log");
  let currentDataDir = dataDir;
  let ctl = [...owner.run, join(bin, "pg_ctl"), "-D", dataDir];
  let stopCommand = [...ctl, "stop", "-m", "immediate", "-w"];
  const password = randomBytes(16).toString("hex");
  const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  let watchdog: Bun.Subprocess | undefined;
  let port = 0;

  try {
    const passwordFile = join(folder, "password");
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    if (owner.uid !== undefined && owner.gid !== undefined) chownSync(passwordFile, owner.uid, owner.gid);
    run(
      [
        ...owner.run,
        join(bin, "initdb"),
        "-D",
        dataDir,
        "-U",
        SUPERUSER,
        `--pwfile=${passwordFile}`,
        "--auth-local=trust",
        "--auth-host=scram-sha-256",
        "--encoding=UTF8",
        "--locale=C",
        "--no-sync",
        "--no-instructions",
      ],
      "initdb",
    );
    rmSync(passwordFile);
    const configFile = join(dataDir, "postgresql.conf");
    const initialConfig = readFileSync(configFile, "utf8");
    for (let attempt = 1; ; attempt++) {
      port = await freeLoopbackPort();
      const settings = serverSettings(folder, port, options);
      writeFileSync(configFile, `${initialConfig}\n# throw-away test cluster (test/support/postgres.ts)\n`);
      appendFileSync(
        configFile,
        Object.entries(settings)
          .map(([name, value]) => `${name} = ${value}\n`)
          .join(""),
      );
      const started = Bun.spawnSync([...ctl, "start", "-w", "-t", "60", "-l", logFile], {
        stdout: "pipe",
        stderr: "pipe",
      });
      if (started.exitCode === 0) break;
      if (attempt === 3 || !/could not bind|address already in use/i.test(log()))
        throw new Error(`pg_ctl start failed: ${started.stderr.toString()}\n${log()}`);
    }
    watchdog = startWatchdog(stopCommand, folder);
    const createDatabase = (name: string): string => {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      run(
        [...owner.run, join(bin, "createdb"), "-h", folder, "-p", String(port), "-U", SUPERUSER, name],
        `createdb ${name}`,
      );
      return `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/${name}`;
    };
    const url = createDatabase(options.database ?? "waybill");
    let stopped = false;
    let copies = 0;
    const startAgain = () => {
      const started = Bun.spawnSync([...ctl, "start", "-w", "-t", "60", "-l", logFile], {
        stdout: "pipe",
        stderr: "pipe",
      });
      if (started.exitCode !== 0) throw new Error(`pg_ctl start failed: ${started.stderr.toString()}\n${log()}`);
    };
    return {
      url,
      port,
      major,
      folder,
      createDatabase,
      log,
      serverPid: () => Number(readFileSync(join(currentDataDir, "postmaster.pid"), "utf8").split("\n")[0]),
      halt(mode = "fast") {
        run([...ctl, "stop", "-m", mode, "-w", "-t", "60"], "pg_ctl stop");
      },
      async failoverToCopy(downForMs = 1_000) {
        run([...ctl, "stop", "-m", "immediate", "-w", "-t", "60"], "pg_ctl stop");
        await Bun.sleep(downForMs);
        const copy = join(folder, `data-copy-${++copies}`);
        run([...owner.run, "cp", "-a", currentDataDir, copy], "copying the data directory");
        currentDataDir = copy;
        ctl = [...owner.run, join(bin, "pg_ctl"), "-D", copy];
        stopCommand = [...ctl, "stop", "-m", "immediate", "-w"];
        watchdog?.kill();
        watchdog = startWatchdog(stopCommand, folder);
        startAgain();
      },
      resume: startAgain,
      async stop() {
        if (stopped) return;
        stopped = true;
        watchdog?.kill();
        Bun.spawnSync(stopCommand, { stdout: "ignore", stderr: "ignore" });
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    watchdog?.kill();
    Bun.spawnSync(stopCommand, { stdout: "ignore", stderr: "ignore" });
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** For in-process suites: one cluster per file and an empty database per test. */
export interface TestPostgres {
  /** A new empty database; returns its URL. */
  freshDatabase(): Promise<string>;
  /** Drop the databases made here and stop the cluster if this started it. */
  stop(): Promise<void>;
}

/**
 * The cluster named by WAYBILL_TEST_POSTGRES_URL when the environment already runs one (its user
 * must be allowed to create databases), else a throw-away cluster of startPostgres.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const shared = process.env.WAYBILL_TEST_POSTGRES_URL || undefined;
  const cluster = shared ? undefined : await startPostgres();
  const adminUrl = shared ?? defined(cluster, "the throw-away cluster").url;
  const admin = new SQL({ url: adminUrl, max: 1 });
  const created: string[] = [];
  return {
    async freshDatabase() {
      const name = `waybill_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.href;
    },
    async stop() {
      for (const name of created) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
      await cluster?.stop();
    },
  };
}

/**
 * For a test file: startTestPostgres before its first test, stopped after its last (failed tests
 * included); call freshDatabase() inside the tests.
 */
export function usePostgres(): TestPostgres {
  let started: TestPostgres | undefined;
  beforeAll(async () => {
    started = await startTestPostgres();
  }, 180_000);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    freshDatabase: () => {
      if (!started)
        throw new Error("usePostgres(): PostgreSQL is not started yet (call it at the top of the test file)");
      return started.freshDatabase();
    },
    stop: async () => started?.stop(),
  };
}
