// CPU of an answered call's writes (month count, receipt carrying the call's usage, the key's last
// use, the log's checkpoint) through the group committer as the server runs it: 32 writes per batch,
// COMMIT, the WAL fsync off the event loop; then the WAL frames (pages) one batch writes. `bun test/bench/answer-writes.ts [checkout]`: with a checkout (say `git archive main | tar -x
// -C .tmp/main`, with node_modules linked), it measures that tree's code instead, so two builds can be
// compared back to back in the same minute (docs/performance.md, "Rows of an answered call").
// KEEP_DB=1 keeps the database file (for `bun test/bench/storage.ts FILE`) and prints its path.
// A checkout from before the usage moved onto the receipt row (no `usage.batch`) writes its usage row.
// Not a test: nothing here is asserted. Prints thread and process CPU per call.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type * as Accounts from "../../src/access/accounts.ts";
import type * as Authenticate from "../../src/access/authenticate.ts";
import type * as Keys from "../../src/access/keys.ts";
import type * as Clock from "../../src/clock.ts";
import type * as Client from "../../src/db/client.ts";
import type * as Limits from "../../src/metering/limits.ts";
import type * as Validate from "../../src/pipeline/validate.ts";
import type * as Canonical from "../../src/receipts/canonical.ts";
import type * as Runtime from "../../src/runtime.ts";
import type { Store } from "../../src/db/client.ts";
import type { MemoryMeter } from "../../src/metering/meter.ts";
import type { AppendedReceipt } from "../../src/receipts/ledger.ts";
import { answeredUsage, BENCH_REQUEST_ID } from "./answered-usage.ts";

const root = resolve(process.argv[2] ?? join(import.meta.dir, "../.."));
const from = <T>(path: string): Promise<T> => import(join(root, path));
const { createAccount } = await from<typeof Accounts>("src/access/accounts.ts");
const { authenticate } = await from<typeof Authenticate>("src/access/authenticate.ts");
const { issueKey } = await from<typeof Keys>("src/access/keys.ts");
const { systemClock } = await from<typeof Clock>("src/clock.ts");
const { openDatabase } = await from<typeof Client>("src/db/client.ts");
const { parseLimits } = await from<typeof Limits>("src/metering/limits.ts");
const { validateInput } = await from<typeof Validate>("src/pipeline/validate.ts");
const { canonicalJson, sha256Hex } = await from<typeof Canonical>("src/receipts/canonical.ts");
const { createRuntime } = await from<typeof Runtime>("src/runtime.ts");

const CALLS = Number(process.env.CALLS ?? 20_000);
// BATCH=1 or 2 is the 1,000 req/s case; PAUSE_MS=1 sleeps between batches, so each batch runs with
// caches as cold as between a server's requests at that rate (docs/design/2026-11-answered-call-cpu.md).
const BATCH = Number(process.env.BATCH ?? 32);
const PAUSE_MS = Number(process.env.PAUSE_MS ?? 0);

const dir = mkdtempSync(join(resolve(".tmp"), "answer-writes-"));
const file = join(dir, "writes.db");
const db = openDatabase(file);
const limits = parseLimits('{"enterprise":{"per_minute":1000000000,"per_month":1000000000}}');
const runtime = await createRuntime({ db, clock: systemClock, limits });
try {
  const account = await createAccount(db, { email: "bench@example.com", tier: "enterprise" }, Date.now());
  const { key } = await issueKey(db, account.id, null, Date.now());
  runtime.refreshCaches(); // the key was issued after the index loaded
  const principal = authenticate(runtime.keys, `Bearer ${key}`);
  const skill = runtime.skills.find((s) => s.name === "rate-lookup");
  if (!skill?.handler) throw new Error("rate-lookup must be served as a reading skill");
  const input = validateInput(
    skill.input,
    { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" },
    "body",
  );
  const now = Date.now();
  const asOf = new Date(now).toISOString().slice(0, 10);
  const result = await skill.handler(input, {
    data: runtime.reference.view(asOf, now),
    caller: principal,
    instance: runtime,
  });
  // As for a kept answer: the canonical texts and the answer's digest are known before the write.
  const canonical = { request: canonicalJson(input), factors: canonicalJson(result.factorVersions) };
  const responseSha256 = sha256Hex(canonicalJson(result.answer));
  const meter = runtime.meter as MemoryMeter;
  const usageOnReceipt = "batch" in runtime.usage;
  const recordAnswered = runtime.usage.recordAnswered as (tx: Store, ...rest: unknown[]) => unknown;

  // What run-skill.ts writes for an answered call, inside its batch.
  const answer = () => {
    const admission = meter.admit(principal, Date.now());
    return runtime.committer.commit(async (tx: Store) => {
      admission.commit(tx);
      const receipt = runtime.ledger.append(tx, {
        issuedAt: Date.now(),
        skill: skill.name,
        principal,
        request: input,
        response: result.answer,
        responseSha256,
        canonical,
        factorVersions: result.factorVersions,
        modelVersion: result.modelVersion,
        asOf,
        knownAt: now,
        usage: { requestId: BENCH_REQUEST_ID, latencyMs: 1 },
      }) as AppendedReceipt;
      await (usageOnReceipt
        ? recordAnswered(tx, principal.keyId, now)
        : recordAnswered(tx, answeredUsage(principal, skill.name, receipt.id, now)));
    });
  };
  const batch = async () => {
    await Promise.all(Array.from({ length: BATCH }, answer));
    if (PAUSE_MS > 0) await Bun.sleep(PAUSE_MS);
  };
  for (let i = 0; i < 100; i++) await batch(); // warm up
  const thread = process.threadCpuUsage();
  const whole = process.cpuUsage();
  for (let i = 0; i < CALLS / BATCH; i++) await batch();
  const perCall = (before: NodeJS.CpuUsage, after: NodeJS.CpuUsage) =>
    ((after.user + after.system - before.user - before.system) / CALLS).toFixed(1);
  console.log(
    `${root}: ${perCall(thread, process.threadCpuUsage())} µs main-thread CPU, ${perCall(whole, process.cpuUsage())} µs process CPU per answered call's writes (${BATCH} per batch)`,
  );
  console.log(`WAL frames per batch of ${BATCH}: ${(await walFramesPerBatch(batch)).toFixed(1)}`);
} finally {
  await runtime.close();
  db.$client.close();
  if (process.env.KEEP_DB) console.log(`kept ${file}`);
  else rmSync(dir, { recursive: true, force: true });
}

/**
 * Frames (pages) one batch appends to the WAL, over a run of batches in which the WAL did not start
 * over: mxFrame, the last valid frame, and the salts from the wal-index header at the start of the
 * -shm file (SQLite's WAL format: offsets 16 and 32, native byte order).
 */
async function walFramesPerBatch(batch: () => Promise<unknown>, batches = 50): Promise<number> {
  const walIndex = () => {
    const header = readFileSync(`${file}-shm`).subarray(0, 48);
    return { frames: header.readUInt32LE(16), salts: header.subarray(32, 40).toString("hex") };
  };
  for (let tries = 0; tries < 20; tries++) {
    const before = walIndex();
    for (let i = 0; i < batches; i++) await batch();
    const after = walIndex();
    if (after.salts === before.salts && after.frames > before.frames) return (after.frames - before.frames) / batches;
  }
  throw new Error("the WAL started over in every try");
}
