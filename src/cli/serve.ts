import { resolve } from "node:path";
import { createApp } from "../app.ts";
import { systemClock } from "../clock.ts";
import type { ServeConfig } from "../config.ts";
import { ConfigError } from "../errors.ts";
import { describeLocation } from "../db/location.ts";
import { openStore, type OpenStore } from "../db/open.ts";
import { reachableOrigin, rememberLinkOrigin, setupUrlOnFirstStart } from "../dashboard/index.ts";
import { warmGazetteer } from "../reference/index.ts";
import { acquireInstanceLock, resolvedPath } from "../ops/instance-lock.ts";
import { configureLog } from "../ops/log.ts";
import { keepServingOnStrayErrors } from "../ops/stray-errors.ts";
import { stopGracefully } from "../ops/graceful-stop.ts";
import { MonotonicClock, newestRecordedInstant } from "../ops/monotonic-clock.ts";
import { embeddedRoadNetwork } from "../reference/roads/index.ts";
import { startSyncSchedule } from "../reference/sync/schedule.ts";
import { witnessFileOf, witnessProblem, writeWitness } from "../receipts/witness.ts";
import { createRuntime } from "../runtime.ts";
import { log } from "../ops/log.ts";

/**
 * Far above the 64 KiB cap on purpose: the app reads every body through its own cap and answers
 * 413 from the error table (with a request id); at Bun's limit Bun would answer a bare 413 itself.
 * Bun does not buffer a body nobody reads, so this does not grow memory per request.
 */
const SOCKET_BODY_LIMIT = 1024 * 1024 * 1024;

export async function serve(config: ServeConfig): Promise<void> {
  configureLog({ format: config.logFormat, level: config.logLevel });
  keepServingOnStrayErrors();
  // One server per SQLite file, taken before migrating: a second server must not touch the file.
  // Replicas on PostgreSQL share their database by design; its migration runs under an advisory lock.
  const lock = config.database.dialect === "sqlite" ? acquireInstanceLock(config.database.file) : undefined;
  let opened: OpenStore;
  try {
    opened = await openStore(config.database);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = opened.store;
  const where =
    config.database.dialect === "sqlite" ? resolve(config.database.file) : describeLocation(config.database);
  const clock = new MonotonicClock(systemClock, await newestRecordedInstant(db));
  const runtime = await createRuntime({
    db,
    clock,
    limits: config.limits,
    log: { origin: config.logOrigin, publicUrl: config.publicUrl?.href },
    allowPrivateWebhooks: config.allowPrivateWebhooks,
  });
  const abandon = async () => {
    await runtime.close();
    await opened.close();
    lock?.release();
  };
  const writable = await runtime.readiness.check();
  if (!writable.ok) {
    await abandon();
    throw new ConfigError(`database ${where} does not take writes: ${writable.reason}.`);
  }
  // The SQLite file's log keeps a copy of its latest checkpoint beside it, and refuses a log without it.
  const witness = config.database.dialect === "sqlite" ? witnessFileOf(resolvedPath(config.database.file)) : undefined;
  const witnessRefusal = witness ? await witnessProblem(db, witness) : null;
  if (witnessRefusal) {
    await abandon();
    throw new ConfigError(`${witnessRefusal}.`);
  }
  const keepWitness = witness ? witnessKeeper(witness, () => runtime.ledger.log.latest()?.note) : undefined;
  warmGazetteer(); // build the place index now, not inside the first requests (0.2–0.3 s)
  embeddedRoadNetwork(); // and the road network with its landmark distances
  const app = createApp(runtime, {
    dashboard: { trustProxy: config.trustProxy, publicUrl: config.publicUrl },
    corsOrigins: config.corsOrigins,
    publicUrl: config.publicUrl?.origin,
  });
  try {
    // reusePort off (Elysia turns it on): with it, a second server on this port would start silently
    // and the kernel would split connections between the two.
    app.listen({
      port: config.port,
      hostname: config.host,
      maxRequestBodySize: SOCKET_BODY_LIMIT,
      development: false,
      reusePort: false,
    });
  } catch (error) {
    await abandon();
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw new ConfigError(`port ${config.port} on ${config.host} is already in use.`);
    throw new ConfigError(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }

  const stopSync = config.offline
    ? undefined
    : startSyncSchedule({
        db,
        everyMs: config.syncEveryMs,
        env: process.env,
        now: () => systemClock.now(),
        events: runtime.dataEvents,
        log: (line) => console.log(line),
      });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests`);
    // Answer what clients already sent, closing each connection after it; then stop listening.
    if (app.server) await stopGracefully(app.server, (request) => app.handle(request));
    stopSync?.();
    await runtime.close();
    keepWitness?.stop();
    opened.sqlite?.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
    await opened.close();
    lock?.release();
    console.log("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  runtime.webhooks.start();
  runtime.alertBackground.start();
  void runtime.batchRunner.resume(); // a sheet a restart interrupted resumes where it stopped

  // Announce only once everything is in place (the database took a write, the socket answers):
  // scripts treat this line as "ready".
  const { server } = app;
  if (!server) throw new Error("Elysia's listen() returned without a server");
  const url = `http://${config.host}:${server.port}`;
  const linkOrigin = config.publicUrl?.origin ?? reachableOrigin(config.host, server.port ?? config.port);
  await rememberLinkOrigin(db, linkOrigin);
  const setupUrl = await setupUrlOnFirstStart(db, linkOrigin);
  console.log(
    config.offline
      ? "offline: no data sync; answering from the figures stored (waybill data sync fetches them)"
      : "data sync: first run within a minute, then on each source's publication schedule (--offline turns it off)",
  );
  console.log(`listening on ${url}`);
  console.log(`database ${where}`);
  if (setupUrl) console.log(`no admin yet: open ${setupUrl} once to create the admin account`);
}

/** Copy the log's latest durable checkpoint to the witness file now, then once a second while it changes. */
function witnessKeeper(file: string, latest: () => string | undefined): { stop(): void } {
  let written: string | undefined;
  let failed = false;
  const keep = () => {
    const note = latest();
    if (note === undefined || note === written) return;
    try {
      writeWitness(file, note);
      written = note;
      failed = false;
    } catch (error) {
      if (!failed) log.warn("witness_write_failed", { file, reason: (error as Error).message });
      failed = true;
    }
  };
  keep();
  const timer = setInterval(keep, 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      keep();
    },
  };
}
