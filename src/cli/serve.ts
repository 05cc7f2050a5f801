import { resolve } from "node:path";
import { createApp } from "../app.ts";
import { systemClock } from "../clock.ts";
import type { ServeConfig } from "../config.ts";
import { ConfigError } from "../errors.ts";
import { describeLocation } from "../db/location.ts";
import { openStore, type OpenStore } from "../db/open.ts";
import { setupUrlOnFirstStart } from "../dashboard/index.ts";
import { warmGazetteer } from "../reference/index.ts";
import { acquireInstanceLock } from "../ops/instance-lock.ts";
import { configureLog } from "../ops/log.ts";
import { MonotonicClock, newestRecordedInstant } from "../ops/monotonic-clock.ts";
import { embeddedRoadNetwork } from "../reference/roads/index.ts";
import { startSyncSchedule } from "../reference/sync/schedule.ts";
import { createRuntime } from "../runtime.ts";

/**
 * Far above the 64 KiB cap on purpose: the app reads every body through its own cap and answers
 * 413 from the error table (with a request id); at Bun's limit Bun would answer a bare 413 itself.
 * Bun does not buffer a body nobody reads, so this does not grow memory per request.
 */
const SOCKET_BODY_LIMIT = 1024 * 1024 * 1024;

export async function serve(config: ServeConfig): Promise<void> {
  configureLog({ format: config.logFormat, level: config.logLevel });
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

  const stopSync = config.syncEveryMs
    ? startSyncSchedule({
        db,
        everyMs: config.syncEveryMs,
        env: process.env,
        now: () => systemClock.now(),
        events: runtime.dataEvents,
        report: (outcomes) => {
          for (const outcome of outcomes) console.log(`data sync ${outcome.message}`);
        },
      })
    : undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests`);
    await app.stop(false); // stop accepting; in-flight requests finish
    stopSync?.();
    await runtime.close();
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
  runtime.batchRunner.wake(); // a sheet a restart interrupted resumes where it stopped

  // Announce only once everything is in place (the database took a write, the socket answers):
  // scripts treat this line as "ready".
  const url = `http://${config.host}:${app.server!.port}`;
  const setupUrl = await setupUrlOnFirstStart(db, config.publicUrl?.origin ?? url);
  console.log(`listening on ${url}`);
  console.log(`database ${where}`);
  if (setupUrl) console.log(`no admin yet: open ${setupUrl} once to create the admin account`);
}
