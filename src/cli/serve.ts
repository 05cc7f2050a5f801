import { createApp } from "../app.ts";
import { systemClock } from "../clock.ts";
import { ConfigError, type ServeConfig } from "../config.ts";
import { openDatabaseFile } from "../db/open.ts";
import { setupUrlOnFirstStart } from "../dashboard/index.ts";
import { warmGazetteer } from "../reference/index.ts";
import { createRuntime } from "../runtime.ts";

/** Bigger than the 64 KiB API cap so the app answers 413 in its own words; bounds memory per request. */
const SOCKET_BODY_LIMIT = 1024 * 1024;

export async function serve(config: ServeConfig): Promise<void> {
  const db = openDatabaseFile(config.dbFile);
  const runtime = createRuntime({ db, clock: systemClock, limits: config.limits, allowPrivateWebhooks: config.allowPrivateWebhooks });
  warmGazetteer(); // build the place index now, not inside the first requests (0.2–0.3 s)
  const app = createApp(runtime);
  try {
    app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: SOCKET_BODY_LIMIT, development: false });
  } catch (error) {
    runtime.close();
    db.$client.close();
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw new ConfigError(`port ${config.port} on ${config.host} is already in use.`);
    throw new ConfigError(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests`);
    await app.stop(false); // stop accepting; in-flight requests finish
    runtime.close();
    db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.$client.close();
    console.log("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  runtime.webhooks.start();
  runtime.alertBackground.start();

  // Announce only once everything is in place: scripts treat this line as "ready".
  const url = `http://${config.host}:${app.server!.port}`;
  console.log(`listening on ${url}`);
  console.log(`database ${db.$client.filename}`);
  const setupUrl = setupUrlOnFirstStart(db, url);
  if (setupUrl) console.log(`no admin yet: open ${setupUrl} once to create the admin account`);
}
