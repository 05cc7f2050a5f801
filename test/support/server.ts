import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import type { Tier } from "../../src/access/tiers.ts";
import type { Scope } from "../../src/skills/catalog.ts";
import { createApp } from "../../src/app.ts";
import { ManualClock, type Clock } from "../../src/clock.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { DEFAULT_LIMITS, type LimitsTable } from "../../src/metering/limits.ts";
import { createRuntime } from "../../src/runtime.ts";

let accountCounter = 0;

export interface TestServer {
  url: string;
  runtime: ReturnType<typeof createRuntime>;
  clock: Clock;
  /** A new account on the tier with a fresh key; returns the full key and its grant. */
  accountWithKey(tier: Tier, scopes?: Scope[] | null): { key: string; accountId: string; authObjId: string; email: string };
  call(path: string, init?: RequestInit & { key?: string; json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

/** The real app on a real loopback port over a fresh in-memory database. */
export async function startTestServer(options: { limits?: LimitsTable; clock?: Clock } = {}): Promise<TestServer> {
  const db = openMemoryDatabase();
  const clock = options.clock ?? new ManualClock(Date.parse("2026-10-15T12:00:00Z"));
  const runtime = createRuntime({ db, clock, limits: options.limits ?? DEFAULT_LIMITS });
  const app = createApp(runtime).listen({ port: 0, hostname: "127.0.0.1" });
  const url = `http://127.0.0.1:${app.server!.port}`;
  return {
    url,
    runtime,
    clock,
    accountWithKey(tier, scopes = null) {
      const email = `user${++accountCounter}@example.com`;
      const account = createAccount(db, { email, tier }, clock.now());
      const issued = issueKey(db, account.id, scopes, clock.now());
      return { key: issued.key, accountId: account.id, authObjId: issued.record.authObjId, email };
    },
    call(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.key) headers.set("authorization", `Bearer ${init.key}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(init.json);
      }
      return fetch(url + path, { ...init, headers, body });
    },
    async stop() {
      await app.stop(true);
      runtime.close();
      db.$client.close();
    },
  };
}

export const CHICAGO_TO_DALLAS = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
