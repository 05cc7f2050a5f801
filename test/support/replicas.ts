import { runCli, startBinary, type RunningServer } from "./binary.ts";
import { defined } from "./defined.ts";

/**
 * N copies of `waybill serve --database URL` (or `--db FILE`: then N must be 1) on loopback ports, as a load balancer without
 * affinity would see them (docs/deployment.md). Used by the replica suite and the replica bench.
 */
export interface ReplicaSet {
  /** The running replicas; a restarted one takes its predecessor's place (on a new port). */
  readonly replicas: RunningServer[];
  /** The base URL of the next replica, round robin. */
  next(): string;
  /** Start replica `index` again (after a kill) against the same database. */
  restart(index: number): Promise<RunningServer>;
  /** SIGTERM every replica still running and wait for it to exit. */
  stop(): Promise<void>;
}

export interface ReplicaOptions {
  cwd: string;
  env?: Record<string, string>;
  /** Extra `serve` flags, the same for every replica. */
  args?: string[];
}

const running = (replica: RunningServer | undefined) =>
  replica !== undefined && replica.process.exitCode === null && replica.process.signalCode === null;

/** The flag naming a database: `--database` for a postgres:// URL, `--db` for a SQLite file. */
export const databaseFlag = (database: string) =>
  /^postgres(ql)?:\/\//.test(database) ? ["--database", database] : ["--db", database];

export async function startReplicas(
  exe: string,
  count: number,
  database: string,
  options: ReplicaOptions,
): Promise<ReplicaSet> {
  const start = () =>
    startBinary(exe, [...databaseFlag(database), ...(options.args ?? [])], { cwd: options.cwd, env: options.env });
  const started = await Promise.allSettled(Array.from({ length: count }, start));
  const replicas = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) {
    await Promise.all(replicas.map((replica) => replica.stop("SIGKILL")));
    throw failed.reason;
  }
  let turn = 0;
  return {
    replicas,
    next: () => defined(replicas[turn++ % replicas.length], "replicas[turn++ % replicas.length]").url,
    async restart(index) {
      if (running(replicas[index])) await replicas[index]?.stop("SIGKILL");
      replicas[index] = await start();
      return replicas[index];
    },
    async stop() {
      await Promise.all(replicas.filter(running).map((replica) => replica.stop("SIGTERM")));
    },
  };
}

/** A CLI command of the binary against `database` (URL or file); throws with its stderr when it fails. */
export function cliOn(exe: string, database: string, cwd: string, args: string[], stdin?: string): string {
  const result = runCli(exe, [...args, ...databaseFlag(database)], cwd, stdin);
  if (result.exitCode !== 0) throw new Error(`waybill ${args.join(" ")} exited ${result.exitCode}: ${result.stderr}`);
  return result.stdout;
}

/** An account of `tier` with a fresh key, made through the CLI as an operator would; returns the key. */
export function accountKeyOn(
  exe: string,
  database: string,
  cwd: string,
  email: string,
  tier: string,
  password?: string,
): string {
  const passwordArgs = password === undefined ? [] : ["--password-stdin"];
  cliOn(
    exe,
    database,
    cwd,
    ["accounts", "create", "--email", email, "--tier", tier, ...passwordArgs, "--json"],
    password,
  );
  return (JSON.parse(cliOn(exe, database, cwd, ["keys", "create", "--email", email, "--json"])) as { key: string }).key;
}
