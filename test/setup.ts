// Tests run in UTC so calendar-month boundaries mean the same thing on every machine.
process.env.TZ = "UTC";

// In-process servers would print an access-log line per request; tests that check the log capture it.
import { configureLog } from "../src/ops/log.ts";
configureLog({ level: "warn" });
