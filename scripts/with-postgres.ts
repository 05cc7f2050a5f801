// `bun scripts/with-postgres.ts COMMAND ARGS…`: run COMMAND with one throw-away PostgreSQL cluster
// for all of it (test/support/postgres.ts: Debian's server, installed when missing, on a free
// loopback port with its own data directory), named by WAYBILL_TEST_POSTGRES_URL; the PostgreSQL
// suites make their own databases in it. The cluster is stopped and removed when COMMAND ends, and
// by its watchdog if this process is killed. Exits with COMMAND's status.
import { startPostgres, type PostgresCluster } from "../test/support/postgres.ts";

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error("usage: bun scripts/with-postgres.ts COMMAND [ARGS…]");
  process.exit(2);
}

let cluster: PostgresCluster | undefined;
try {
  cluster = await startPostgres({ database: "waybill_tests" });
} catch (error) {
  // The suites that need PostgreSQL then start their own cluster and report why that fails too.
  console.error(`no shared PostgreSQL for this run: ${(error as Error).message.split("\n")[0]}`);
}

const child = Bun.spawn(command, {
  env: cluster ? { ...process.env, WAYBILL_TEST_POSTGRES_URL: cluster.url } : process.env,
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
const status = await child.exited;
await cluster?.stop();
process.exit(status);
