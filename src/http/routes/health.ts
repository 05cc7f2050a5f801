import { Elysia } from "elysia";
import type { ReadinessProbe } from "../../ops/readiness.ts";
import type { ReferenceData } from "../../reference/storage/view.ts";
import type { Metrics } from "../observability/metrics.ts";

/** Probes: /healthz (the process answers), /readyz (the database takes writes and data is loaded), /metrics. */
export function healthRoutes(deps: { readiness: ReadinessProbe; reference: ReferenceData; metrics: Metrics }) {
  return new Elysia({ name: "health" })
    .get("/healthz", () => ({ status: "ok" }))
    .get("/readyz", async ({ set }) => {
      const database = await deps.readiness.check();
      const checks = { database_writable: database.ok, reference_data_loaded: deps.reference.coverage() !== undefined };
      const ready = checks.database_writable && checks.reference_data_loaded;
      set.status = ready ? 200 : 503;
      const reasons = [
        ...(database.ok ? [] : [database.reason]),
        ...(checks.reference_data_loaded ? [] : ["no reference data loaded"]),
      ];
      return { status: ready ? "ready" : "not_ready", checks, ...(ready ? {} : { reasons }) };
    })
    .get(
      "/metrics",
      async () => new Response(await deps.metrics.render(), { headers: { "content-type": deps.metrics.contentType } }),
    );
}
