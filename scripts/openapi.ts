#!/usr/bin/env bun
/**
 * Write the OpenAPI document the server would publish to a file (CI lints it with Redocly and
 * generates a typed client from it): bun scripts/openapi.ts OUT.json [SERVER_URL]
 */
import { writeFileSync } from "node:fs";
import { createApp } from "../src/app.ts";
import { systemClock } from "../src/clock.ts";
import { openMemoryDatabase } from "../src/db/client.ts";
import { DEFAULT_LIMITS } from "../src/metering/limits.ts";
import { createRuntime } from "../src/runtime.ts";

const [out, serverUrl = "http://127.0.0.1:8080"] = process.argv.slice(2);
if (!out) {
  console.error("usage: bun scripts/openapi.ts OUT.json [SERVER_URL]");
  process.exit(2);
}
const db = openMemoryDatabase();
const runtime = await createRuntime({ db, clock: systemClock, limits: DEFAULT_LIMITS });
const response = await createApp(runtime, { publicUrl: serverUrl }).handle(
  new Request("http://localhost/openapi.json"),
);
writeFileSync(out, JSON.stringify(await response.json(), null, 2));
runtime.close();
db.$client.close();
console.log(`wrote ${out}`);
