import { Elysia } from "elysia";
import type { Db } from "../db/client.ts";
import type { ReferenceData } from "../reference/view.ts";
import type { Metrics } from "./metrics.ts";

/** Probes: /healthz (the process answers), /readyz (the database takes writes and data is loaded), /metrics. */
export function healthRoutes(deps: { db: Db; reference: ReferenceData; metrics: Metrics }) {
  const takeWriteLock = deps.db.$client.prepare("BEGIN IMMEDIATE");
  const release = deps.db.$client.prepare("ROLLBACK");
  function databaseWritable(): boolean {
    try {
      takeWriteLock.run();
      release.run();
      return true;
    } catch {
      return false;
    }
  }
  return new Elysia({ name: "health" })
    .get("/healthz", () => ({ status: "ok" }))
    .get("/readyz", ({ set }) => {
      const checks = { database_writable: databaseWritable(), reference_data_loaded: deps.reference.coverage() !== undefined };
      const ready = checks.database_writable && checks.reference_data_loaded;
      set.status = ready ? 200 : 503;
      return { status: ready ? "ready" : "not_ready", checks };
    })
    .get("/metrics", async () => new Response(await deps.metrics.render(), { headers: { "content-type": deps.metrics.contentType } }));
}
