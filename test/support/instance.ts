import type { Tier } from "../../src/access/tiers.ts";
import { createApp, type HttpOptions } from "../../src/app.ts";
import { ManualClock } from "../../src/clock.ts";
import type { DashboardOptions } from "../../src/dashboard/index.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { DEFAULT_LIMITS, type LimitsTable } from "../../src/metering/limits.ts";
import { createRuntime } from "../../src/runtime.ts";
import type { Scope } from "../../src/skills/catalog.ts";
import type { RegisteredSkill } from "../../src/skills/types.ts";
import { accountWithKey } from "./accounts.ts";

export interface InstanceOptions {
  limits?: LimitsTable;
  clock?: ManualClock;
  skills?: readonly RegisteredSkill[];
  dashboard?: DashboardOptions;
  /** CORS origins and public URL, as `serve` passes them. */
  http?: Pick<HttpOptions, "corsOrigins" | "publicUrl">;
  /** Listen on a real loopback port (port 0): only for tests about HTTP itself or an outside client. */
  listen?: boolean;
}

/**
 * The whole app over a fresh in-memory database and a hand-moved clock. `call` goes through
 * `app.handle` in-process, or through fetch to the real port when listening.
 */
export async function testInstance(options: InstanceOptions = {}) {
  const db = openMemoryDatabase();
  const clock = options.clock ?? new ManualClock(Date.parse("2026-10-15T12:00:00Z"));
  const runtime = await createRuntime({ db, clock, limits: options.limits ?? DEFAULT_LIMITS, skills: options.skills });
  const app = createApp(runtime, { dashboard: options.dashboard, ...options.http });
  if (options.listen) app.listen({ port: 0, hostname: "127.0.0.1" });
  const url = options.listen ? `http://127.0.0.1:${app.server?.port}` : "http://localhost";
  return {
    db,
    clock,
    runtime,
    app,
    url,
    accountWithKey: (tier: Tier, scopes: Scope[] | null = null) => accountWithKey(db, clock.now(), tier, scopes),
    call(path: string, init: RequestInit & { key?: string; json?: unknown } = {}): Promise<Response> {
      const headers = new Headers(init.headers);
      if (init.key) headers.set("authorization", `Bearer ${init.key}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(init.json);
      }
      const request = new Request(url + path, { ...init, headers, body });
      return options.listen ? fetch(request) : app.handle(request);
    },
    async stop() {
      if (options.listen) await app.stop(true);
      await runtime.close();
      db.$client.close();
    },
  };
}

export type TestInstance = Awaited<ReturnType<typeof testInstance>>;

export const CHICAGO_TO_DALLAS = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
