import { setDefaultTimeout } from "bun:test";
import { configureLog } from "../src/ops/log.ts";

// Tests run in UTC so calendar-month boundaries mean the same thing on every machine.
process.env.TZ = "UTC";

// In-process servers would print an access-log line per request; tests that check the log capture it.
configureLog({ level: "warn" });

// Suites start servers, browsers and PostgreSQL clusters: a minute a test, however the file is run.
// bunfig.toml has no timeout key, so its preload (this file) sets it for every run of `bun test`.
setDefaultTimeout(60_000);
