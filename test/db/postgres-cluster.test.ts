import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SQL } from "bun";
import { startPostgres, startTestPostgres, type TestPostgres, usePostgres } from "../support/postgres.ts";
import { defined } from "../support/defined.ts";

// The throw-away cluster every PostgreSQL suite relies on: reachable by its URL and nothing
// else, and gone afterwards however the test process ends.

const HELPER = resolve(import.meta.dir, "../support/postgres.ts");
const SCRATCH = resolve(import.meta.dir, "../../.tmp");

async function canConnect(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

/** Poll (bounded) until the cluster's port is closed and its folder removed. */
async function waitUntilGone(port: number, folder: string): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (!existsSync(folder) && !(await canConnect(port))) return true;
    await Bun.sleep(250);
  }
  return false;
}

describe("throw-away PostgreSQL cluster", () => {
  test("answers SQL at its URL on loopback, with the password required, and removes everything on stop", async () => {
    const cluster = await startPostgres();
    try {
      const url = new URL(cluster.url);
      expect(url.hostname).toBe("127.0.0.1");
      expect(cluster.major).toBeGreaterThanOrEqual(15);
      expect(cluster.folder.startsWith(SCRATCH)).toBe(true);
      const serverPid = cluster.serverPid();
      expect(() => process.kill(serverPid, 0)).not.toThrow();

      const sql = new SQL(cluster.url);
      const [row] =
        await sql`select current_database() as database, current_setting('listen_addresses') as listen, inet_server_addr()::text as address`;
      await sql`create table probe (id integer primary key)`;
      await sql`insert into probe values (1), (2)`;
      const [{ count }] = await sql`select count(*)::int as count from probe`;
      await sql.close();
      expect(row).toEqual({ database: "waybill", listen: "127.0.0.1", address: "127.0.0.1/32" });
      expect(count).toBe(2);

      url.password = "wrong";
      const intruder = new SQL(url.toString());
      await expect(intruder`select 1`).rejects.toThrow(/password/i);
      await intruder.close();

      const otherUrl = cluster.createDatabase("second");
      const other = new SQL(otherUrl);
      const [{ tables }] = await other`select count(*)::int as tables from pg_tables where tablename = 'probe'`;
      await other.close();
      expect(tables).toBe(0);
      expect(() => cluster.createDatabase("drop table; --")).toThrow(/not a plain database name/);
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.folder)).toBe(false);
    expect(await canConnect(cluster.port)).toBe(false);
    await cluster.stop();
  }, 120_000);

  test("a test file whose tests fail still stops its cluster", async () => {
    mkdirSync(SCRATCH, { recursive: true });
    const dir = mkdtempSync(join(SCRATCH, "pg-suite-"));
    const clustersBefore = new Set(readdirSync(SCRATCH));
    try {
      const suite = join(dir, "failing.test.ts");
      writeFileSync(
        suite,
        [
          `import { expect, test } from "bun:test";`,
          `import { usePostgres } from ${JSON.stringify(HELPER)};`,
          "const pg = usePostgres();",
          `test("fails on purpose", async () => { console.log("DATABASE " + (await pg.freshDatabase())); expect(1).toBe(2); });`,
        ].join("\n"),
      );
      // Its own cluster, not the run's shared one, so that stopping it is visible.
      const env = { ...process.env, WAYBILL_TEST_POSTGRES_URL: "" };
      const result = Bun.spawnSync([process.execPath, "test", suite], {
        cwd: dir,
        env,
        stdout: "pipe",
        stderr: "pipe",
      });
      const output = result.stdout.toString() + result.stderr.toString();
      expect(result.exitCode).not.toBe(0);
      const url = /DATABASE (\S+)/.exec(output)?.[1];
      expect(url).toBeDefined();
      const port = Number(new URL(defined(url, "url")).port);
      const deadline = Date.now() + 30_000;
      while ((await canConnect(port)) && Date.now() < deadline) await Bun.sleep(250);
      expect(await canConnect(port)).toBe(false);
      expect(readdirSync(SCRATCH).filter((name) => !clustersBefore.has(name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("a test process killed with SIGKILL leaves no server or data directory behind", async () => {
    const script = `const { startPostgres } = await import(${JSON.stringify(HELPER)}); const c = await startPostgres(); console.log(JSON.stringify({ port: c.port, folder: c.folder })); await Bun.sleep(600_000);`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    const reader = child.stdout.getReader();
    let text = "";
    const deadline = Date.now() + 90_000;
    while (!text.includes("\n") && Date.now() < deadline) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    const { port, folder } = JSON.parse(text) as { port: number; folder: string };
    expect(await canConnect(port)).toBe(true);
    child.kill("SIGKILL");
    await child.exited;
    expect(await waitUntilGone(port, folder)).toBe(true);
  }, 120_000);
});

describe("a database per test, for a whole test file", () => {
  const pg = usePostgres();

  test("is up before the file's first test and gives each test an empty database", async () => {
    const sql = new SQL(await pg.freshDatabase());
    const [{ tables }] = await sql`select count(*)::int as tables from pg_tables where schemaname = 'public'`;
    await sql.close();
    expect(tables).toBe(0);
  });
});

describe("a database per test", () => {
  /** startTestPostgres with WAYBILL_TEST_POSTGRES_URL set to `shared` (or unset), restored afterwards. */
  async function withSharedUrl<T>(shared: string | undefined, body: () => Promise<T>): Promise<T> {
    const saved = process.env.WAYBILL_TEST_POSTGRES_URL;
    if (shared === undefined) delete process.env.WAYBILL_TEST_POSTGRES_URL;
    else process.env.WAYBILL_TEST_POSTGRES_URL = shared;
    try {
      return await body();
    } finally {
      if (saved === undefined) delete process.env.WAYBILL_TEST_POSTGRES_URL;
      else process.env.WAYBILL_TEST_POSTGRES_URL = saved;
    }
  }

  async function twoSeparateDatabases(postgres: TestPostgres): Promise<[string, string]> {
    const first = await postgres.freshDatabase();
    const second = await postgres.freshDatabase();
    expect(new URL(first).pathname).not.toBe(new URL(second).pathname);
    const one = new SQL(first);
    await one`create table marker (id integer)`;
    await one.close();
    const two = new SQL(second);
    const [{ tables }] = await two`select count(*)::int as tables from pg_tables where tablename = 'marker'`;
    await two.close();
    expect(tables).toBe(0);
    return [first, second];
  }

  test("without a shared cluster: its own cluster, stopped by stop()", async () => {
    const postgres = await withSharedUrl(undefined, startTestPostgres);
    let first = "";
    try {
      [first] = await twoSeparateDatabases(postgres);
    } finally {
      await postgres.stop();
    }
    expect(await canConnect(Number(new URL(first).port))).toBe(false);
  }, 120_000);

  test("with WAYBILL_TEST_POSTGRES_URL: databases in that cluster, dropped by stop(), the cluster left running", async () => {
    const shared = await startPostgres();
    try {
      const postgres = await withSharedUrl(shared.url, startTestPostgres);
      let names: string[] = [];
      try {
        const urls = await twoSeparateDatabases(postgres);
        names = urls.map((url) => new URL(url).pathname.slice(1));
        expect(urls.every((url) => new URL(url).port === String(shared.port))).toBe(true);
      } finally {
        await postgres.stop();
      }
      const sql = new SQL(shared.url);
      const [{ left }] = await sql`select count(*)::int as left from pg_database where datname in ${sql(names)}`;
      await sql.close();
      expect(left).toBe(0);
    } finally {
      await shared.stop();
    }
  }, 120_000);
});
