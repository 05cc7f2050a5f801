// Statements PostgreSQL runs per answered rate lookup (`bun test/bench/round-trips.ts`), counted
// from the server's own log (log_statement = all) on a throw-away cluster: one replica of the
// compiled binary, calls one at a time (every batch holds one call: the worst case) and then
// `--concurrent` at once (batches grow). Every statement of the replica counts, background work
// included; the test cluster's log shows which. Bounded: --calls (default 100) per phase, loopback.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ensureBinary } from "../support/binary.ts";
import { startPostgres } from "../support/postgres.ts";
import { accountKeyOn, cliOn, startReplicas } from "../support/replicas.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { calls: { type: "string", default: "100" }, concurrent: { type: "string", default: "16" } },
});
const calls = Number(values.calls);
const concurrent = Number(values.concurrent);
if (!(Number.isInteger(calls) && calls > 0 && calls <= 2000 && Number.isInteger(concurrent) && concurrent > 0)) {
  console.error("usage: round-trips.ts [--calls 1-2000] [--concurrent N]");
  process.exit(2);
}

const LIMITS = JSON.stringify({ enterprise: { per_minute: 100_000_000, per_month: 1_000_000_000 } });
const BODY = JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" });
const exe = await ensureBinary();
const cluster = await startPostgres({ durable: true, settings: { log_statement: "'all'" } });
const cwd = cluster.folder;
try {
  cliOn(exe, cluster.url, cwd, ["migrate", "--json"]);
  const key = accountKeyOn(exe, cluster.url, cwd, "trips@example.test", "enterprise");
  const set = await startReplicas(exe, 1, cluster.url, { cwd, env: { WAYBILL_LIMITS: LIMITS } });
  const base = set.next();
  const lookup = async () => {
    const response = await fetch(`${base}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: BODY,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`a lookup answered ${response.status}`);
  };
  const statementLines = () =>
    readFileSync(join(cluster.folder, "server.log"), "utf8")
      .split("\n")
      .filter((line) => /LOG: {2}(statement|execute [^:]*):/.test(line));
  for (let i = 0; i < 20; i++) await lookup(); // warm: caches filled, prepared statements made

  const measure = async (name: string, run: () => Promise<void>) => {
    const before = statementLines().length;
    await run();
    await Bun.sleep(300); // the log reaches the file
    const lines = statementLines().slice(before);
    const kinds = new Map<string, number>();
    for (const line of lines) {
      const text = line.replace(/^.*?LOG: {2}(statement|execute [^:]*): /, "").replace(/\s+/g, " ");
      const kind = text.slice(0, 60);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    console.log(
      `\n${name}: ${lines.length} statements for ${calls} answered calls = ${(lines.length / calls).toFixed(2)} per call`,
    );
    for (const [kind, n] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 14))
      console.log(`  ${(n / calls).toFixed(2)}  ${kind}`);
  };
  await measure("one at a time", async () => {
    for (let i = 0; i < calls; i++) await lookup();
  });
  await measure(`${concurrent} at once`, async () => {
    let sent = 0;
    const worker = async () => {
      while (sent < calls) {
        sent += 1;
        await lookup();
      }
    };
    await Promise.all(Array.from({ length: concurrent }, worker));
  });
  await set.stop();
} finally {
  await cluster.stop();
}
