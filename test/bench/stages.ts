// Where an answered call's server time goes, stage by stage, in-process (no sockets):
// `bun test/bench/stages.ts`. Not a test: nothing here is asserted. Uses a file database with the
// production pragmas. Figures are CPU time of this thread (so other load on the machine distorts
// them less than wall time would); the fsync wait is shown separately, as wall time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authenticate } from "../../src/access/authenticate.ts";
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import { BENCH_REQUEST_ID } from "./answered-usage.ts";
import { createApp } from "../../src/app.ts";
import { systemClock } from "../../src/clock.ts";
import { openDatabase, type Store } from "../../src/db/client.ts";
import { parseLimits } from "../../src/metering/limits.ts";
import { createMemoryMeter } from "../../src/metering/create-meter.ts";
import { canonicalJson, sha256Hex } from "../../src/receipts/canonical.ts";
import { ensureSigningKey, signText } from "../../src/receipts/signer.ts";
import { createRuntime } from "../../src/runtime.ts";
import { validateInput } from "../../src/pipeline/validate.ts";
import { computeAnswer } from "../../src/pipeline/answer-memo.ts";
import type { AnyReadingSkill } from "../../src/skills/types.ts";
import { defined } from "../support/defined.ts";
import { sqliteReceiptRows } from "../../src/receipts/rows/sqlite.ts";

const CALLS = Number(process.env.CALLS ?? 5000);
const BATCH = 32; // writes per group transaction, as under 32 connections
const BODY = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

const dir = mkdtempSync(join(tmpdir(), "waybill-stages-"));
const db = openDatabase(join(dir, "stages.db"));
const runtime = await createRuntime({
  db,
  clock: systemClock,
  limits: parseLimits('{"enterprise":{"per_minute":1000000000,"per_month":1000000000}}'),
});
const account = await createAccount(db, { email: "bench@example.com", tier: "enterprise" }, Date.now());
const { key } = await issueKey(db, account.id, null, Date.now());
const authorization = `Bearer ${key}`;
const skill = runtime.skills.find((s) => s.name === "rate-lookup") as AnyReadingSkill | undefined;
if (!skill?.handler) throw new Error("rate-lookup must be served as a reading skill");

const threadMicros = () => {
  const { user, system } = process.threadCpuUsage();
  return user + system;
};

/** µs per call of `run`, divided by `perRun` when one run does several calls' work. */
function measure(name: string, runs: number, run: (i: number) => void, perRun = 1): number {
  for (let i = 0; i < Math.min(runs, 500); i++) run(i); // warm up
  const started = threadMicros();
  for (let i = 0; i < runs; i++) run(i);
  const micros = (threadMicros() - started) / runs / perRun;
  console.log(`${name.padEnd(62)} ${micros.toFixed(1).padStart(7)} µs`);
  return micros;
}

/** measure() for work that settles later: each run awaited before the next. */
async function measureAwaited(name: string, runs: number, run: () => Promise<void>, perRun: number): Promise<number> {
  for (let i = 0; i < Math.min(runs, 500); i++) await run(); // warm up
  const started = threadMicros();
  for (let i = 0; i < runs; i++) await run();
  const micros = (threadMicros() - started) / runs / perRun;
  console.log(`${name.padEnd(62)} ${micros.toFixed(1).padStart(7)} µs`);
  return micros;
}

async function measureAsync(
  name: string,
  calls: number,
  concurrency: number,
  run: () => Promise<unknown>,
): Promise<number> {
  const round = () => Promise.all(Array.from({ length: concurrency }, run));
  for (let i = 0; i < 20; i++) await round();
  const rounds = Math.ceil(calls / concurrency);
  const started = threadMicros();
  for (let i = 0; i < rounds; i++) await round();
  const micros = (threadMicros() - started) / (rounds * concurrency);
  console.log(`${name.padEnd(62)} ${micros.toFixed(1).padStart(7)} µs`);
  return micros;
}

try {
  runtime.refreshCaches(); // the key was issued after the index loaded
  const principal = authenticate(runtime.keys, authorization);
  const now = Date.now();
  const input = validateInput(skill.input, structuredClone(BODY), "body");
  const asOf = new Date(now).toISOString().slice(0, 10);
  const result = skill.handler(input, {
    data: runtime.reference.view(asOf, now),
    caller: principal,
    instance: runtime,
  });
  const entry = {
    issuedAt: now,
    skill: skill.name,
    principal,
    request: input,
    response: result.answer,
    factorVersions: result.factorVersions,
    modelVersion: result.modelVersion,
    asOf,
    knownAt: now,
    usage: { requestId: BENCH_REQUEST_ID, latencyMs: 1 },
  };
  const sqlite = db.$client;
  const signingKey = await ensureSigningKey(sqliteReceiptRows(db), db, systemClock);

  console.log(`per answered call, ${CALLS} calls (Bun ${Bun.version})`);
  measure("refreshCaches + authenticate (SHA-256, Map lookup)", CALLS, () => {
    runtime.refreshCaches();
    authenticate(runtime.keys, authorization);
  });
  const meter = createMemoryMeter({ db, limits: runtime.limits }); // the SQLite file's meter, as runtime.ts wraps it
  measure("meter.admit + release", CALLS, () => meter.admit(principal, Date.now()).release());
  measure("JSON.parse body + validateInput", CALLS, () =>
    validateInput(skill.input, JSON.parse(JSON.stringify(BODY)), "body"),
  );
  measure("reference.view + rate-lookup handler", CALLS, () =>
    skill.handler(input, { data: runtime.reference.view(asOf, Date.now()), caller: principal, instance: runtime }),
  );
  measure("reference.view + kept answer (same lane, same figures)", CALLS, () =>
    computeAnswer(skill, input, {
      data: runtime.reference.view(asOf, Date.now()),
      caller: principal,
      instance: runtime,
    }),
  );
  // As appendReceipt does: the request and the answer once each for their digests, then the body
  // (which carries the request and only the answer's digest).
  const { response, ...bodyLike } = entry;
  measure("receipt: canonicalJson(request) + (answer) + (body)", CALLS, () => {
    canonicalJson(entry.request);
    canonicalJson(response);
    canonicalJson(bodyLike);
  });
  const canonicalBody = canonicalJson(bodyLike);
  measure("receipt: 3 × SHA-256 of canonical text + leaf hash", CALLS, () => {
    sha256Hex(canonicalBody);
    sha256Hex(canonicalBody);
    sha256Hex(canonicalBody);
    sha256Hex(canonicalBody.slice(0, 33));
  });
  const reference = (await import("canonicalize")).default;
  measure("receipt: the same three with the canonicalize package (before)", CALLS, () => {
    reference(entry.request);
    reference(response);
    reference(bodyLike);
  });
  // One group-commit batch of BATCH writes, committed now: savepoints, the log's tiles and its one
  // checkpoint signature, COMMIT with its fsync.
  const batchedAppend = async (write: (tx: Store) => Promise<unknown>) => {
    for (let j = 0; j < BATCH; j++) runtime.committer.commit(write).catch(() => {});
    await runtime.committer.flush();
  };
  measure(
    "checkpoint: one Ed25519 signature (once per batch, not per call)",
    CALLS / BATCH,
    () => signText(signingKey, canonicalBody.slice(0, 120)),
    BATCH,
  );
  await measureAwaited(
    `ledger.append (hash, insert, stage leaf) + checkpoint, ${BATCH}/batch`,
    CALLS / BATCH,
    () => batchedAppend((tx) => runtime.ledger.append(tx, entry)),
    BATCH,
  );
  await measureAwaited(
    `commit closure (admission, receipt with its usage, key's last use) + checkpoint, ${BATCH}/batch`,
    CALLS / BATCH,
    () =>
      batchedAppend(async (tx) => {
        const admission = meter.admit(principal, Date.now());
        admission.commit(tx);
        await runtime.ledger.append(tx, entry);
        await runtime.usage.recordAnswered(tx, principal.keyId, now);
      }),
    BATCH,
  );
  const probe = sqlite.prepare(
    "INSERT INTO main.usage_events (at, request_id, account_id, key_id, skill, status, latency_ms) VALUES (?, 'req_probe', ?, ?, 'probe', 200, 0)",
  );
  const walls: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = Bun.nanoseconds();
    sqlite.transaction(() => probe.run(i, principal.accountId, principal.keyId)).immediate();
    walls.push((Bun.nanoseconds() - started) / 1000);
  }
  walls.sort((a, b) => a - b);
  console.log(
    `${"one-row transaction, wall time incl. fsync: p50 / p99".padEnd(62)} ${defined(walls[150], "walls[150]").toFixed(0)} / ${defined(walls[297], "walls[297]").toFixed(0)} µs`,
  );

  const app = createApp(runtime);
  const request = () =>
    app
      .handle(
        new Request("http://localhost/v1/rates/lookup", {
          method: "POST",
          headers: { authorization, "content-type": "application/json" },
          body: JSON.stringify(BODY),
        }),
      )
      .then((response) => response.text());
  await measureAsync(`app.handle, whole answered call, ${BATCH} concurrent`, CALLS, BATCH, request);
  await measureAsync("app.handle, whole answered call, 1 at a time", Math.min(CALLS, 2000), 1, request);
  console.log("group commit:", runtime.committer.stats());
} finally {
  await runtime.close();
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
}
