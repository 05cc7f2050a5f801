import { afterAll, beforeAll } from "bun:test";
import { SQL } from "bun";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { ensureDebianTool } from "./debian.ts";

/**
 * A throw-away PostgreSQL for in-process tests: WAYBILL_TEST_POSTGRES_URL when CI already runs one,
 * else a cluster of Debian's postgresql (installed when missing) in .tmp/ on a free loopback port,
 * run as the postgres user and stopped by stop(). Each test asks freshDatabase() for its own database.
 */
export interface TestPostgres {
  freshDatabase(): Promise<string>;
  stop(): Promise<void>;
}

function postgresBin(): string | null {
  if (!existsSync("/usr/lib/postgresql") && !ensureDebianTool("/usr/bin/psql", "postgresql")) return null;
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a)) : [];
  const version = versions.find((v) => Number(v) >= 15);
  return version ? `/usr/lib/postgresql/${version}/bin` : null;
}

function run(argv: string[]): void {
  const asPostgres = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--", ...argv] : argv;
  const result = Bun.spawnSync(asPostgres, { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${argv.join(" ")} failed: ${result.stderr.toString()}`);
}

function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** For a test file: a PostgreSQL started before its tests and stopped after them; call freshDatabase() inside tests. */
export function usePostgres(): TestPostgres {
  let started: TestPostgres | undefined;
  beforeAll(async () => {
    started = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    freshDatabase: () => {
      if (!started) throw new Error("usePostgres(): PostgreSQL is not started yet (call it at the top of the file)");
      return started.freshDatabase();
    },
    stop: async () => started?.stop(),
  };
}

async function startTestPostgres(): Promise<TestPostgres> {
  const shared = process.env.WAYBILL_TEST_POSTGRES_URL;
  const { adminUrl, stopCluster } = shared ? { adminUrl: shared, stopCluster: async () => {} } : startCluster();
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
      await stopCluster();
    },
  };
}

function startCluster(): { adminUrl: string; stopCluster: () => Promise<void> } {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL 15+ is not installed and apt-get could not install it");
  mkdirSync(".tmp", { recursive: true });
  const dir = mkdtempSync(join(resolve(".tmp"), "pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const port = freePort();
  run([`${bin}/initdb`, "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  run([
    `${bin}/pg_ctl`,
    "-D",
    data,
    "-w",
    "-l",
    join(dir, "log"),
    "-o",
    `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`,
    "start",
  ]);
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stopCluster() {
      run([`${bin}/pg_ctl`, "-D", data, "-m", "immediate", "-w", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
