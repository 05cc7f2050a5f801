/**
 * A key revoked (or a session ended, an admin demoted) through another replica or the CLI is
 * refused by this replica on its next request on every route, not only on skill calls, even before
 * the revoke's NOTIFY reaches it (docs/postgresql.md, "Revocation on the next request").
 *
 * The replica under test is a whole app over its own pool; its key index is frozen once it knows
 * the key, which stands for a notification that has not arrived yet (or never does): whatever
 * refuses the key below read the database, not the index.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { authenticate } from "../../src/access/authenticate.ts";
import { revokeActiveKey } from "../../src/access/keys.ts";
import { setAccountPassword } from "../../src/access/passwords.ts";
import { createApp } from "../../src/app.ts";
import { ManualClock } from "../../src/clock.ts";
import { startSession } from "../../src/dashboard/sessions.ts";
import { openStore, type OpenStore } from "../../src/db/open.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import { createRuntime, type Runtime } from "../../src/runtime.ts";
import { accountWithKey, accountWithPassword } from "../support/accounts.ts";
import { CHICAGO_TO_DALLAS } from "../support/instance.ts";
import { usePostgres } from "../support/postgres.ts";
import { defined } from "../support/defined.ts";

const postgres = usePostgres();
const clock = new ManualClock(Date.parse("2026-10-15T12:00:00Z"));
/** The other replica (or the CLI): where every revoke below commits. */
let elsewhere: OpenStore;
let replica: OpenStore;
let runtime: Runtime;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const url = await postgres.freshDatabase();
  replica = await openStore({ dialect: "postgres", url });
  elsewhere = await openStore({ dialect: "postgres", url });
  runtime = await createRuntime({ db: replica.store, clock, limits: DEFAULT_LIMITS });
  app = createApp(runtime);
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await replica?.close();
  await elsewhere?.close();
});

function call(
  path: string,
  init: RequestInit & { key?: string; json?: unknown; cookie?: string } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const body = init.json === undefined ? init.body : JSON.stringify(init.json);
  return app.handle(new Request(`http://localhost${path}`, { ...init, headers, body }));
}

const mcp = (key: string, message: Record<string, unknown>) =>
  call("/mcp", {
    method: "POST",
    key,
    json: { jsonrpc: "2.0", id: 1, ...message },
    headers: { accept: "application/json, text/event-stream" },
  });

/** Every API-key route a client might call next, by name, with the status and error code it answered. */
async function everyRoute(key: string): Promise<Record<string, [number, unknown]>> {
  const routes: Record<string, () => Promise<Response>> = {
    usage: () => call("/v1/usage", { key }),
    events: () => call("/v1/events", { key }),
    skills: () => call("/v1/skills", { key }),
    "mcp tools/list": () => mcp(key, { method: "tools/list" }),
    "a replayed answer": () =>
      call("/v1/rates/lookup", {
        method: "POST",
        key,
        json: CHICAGO_TO_DALLAS,
        headers: { "idempotency-key": "replayed" },
      }),
    "a skill the tier lacks": () => call("/v1/rates/forecast", { method: "POST", key, json: CHICAGO_TO_DALLAS }),
    "a skill call": () => call("/v1/rates/lookup", { method: "POST", key, json: CHICAGO_TO_DALLAS }),
  };
  const outcomes: Record<string, [number, unknown]> = {};
  for (const [name, route] of Object.entries(routes)) {
    const response = await route();
    outcomes[name] = [response.status, ((await response.json()) as { error?: unknown }).error];
  }
  return outcomes;
}

describe("on PostgreSQL, before this replica hears of the revoke", () => {
  test("a key revoked elsewhere is refused on every route: usage, events, the skill list, MCP, a replay, a refusal, a call", async () => {
    const { key, accountId } = await accountWithKey(elsewhere.store, clock.now(), "starter");
    await runtime.keys.reload();
    // The answer the replay below would give back, stored while the key was valid.
    const first = await call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: CHICAGO_TO_DALLAS,
      headers: { "idempotency-key": "replayed" },
    });
    expect(first.status).toBe(200);
    expect(await everyRoute(key)).toEqual({
      usage: [200, undefined],
      events: [200, undefined],
      skills: [200, undefined],
      "mcp tools/list": [200, undefined],
      "a replayed answer": [200, undefined],
      "a skill the tier lacks": [403, "TIER_REQUIRED"],
      "a skill call": [200, undefined],
    });

    // The events page is read through the key's row: it lists the account's events while the key is valid.
    const page = (await (await call("/v1/events", { key })).json()) as {
      events: { type: string; data: { key_id?: string } }[];
    };
    expect(page.events.map((event) => event.type)).toEqual(["key.created"]);
    expect(defined(page.events[0], "page.events[0]").data.key_id).toBeString();

    runtime.keys.reload = () => undefined; // no notification gets through from here on
    await revokeActiveKey(elsewhere.store, accountId, clock.now());
    clock.advance(1);
    expect(authenticate(runtime.keys, `Bearer ${key}`).accountId).toBe(accountId); // the index still grants it

    const refused = await everyRoute(key);
    for (const outcome of Object.values(refused)) expect(outcome).toEqual([401, "REVOKED_API_KEY"]);
    expect(Object.keys(refused)).toHaveLength(7);
  }, 60_000);

  test("a dashboard session ended elsewhere, or an admin demoted elsewhere, is refused on its next request", async () => {
    const account = await accountWithPassword(elsewhere.store, "admin-on-replicas@example.com", "starter", true);
    const { token } = await startSession(elsewhere.store, account.id, clock.now());
    // A loopback request: the secure-context cookie name (src/dashboard/cookies.ts).
    const cookie = `__Host-waybill_session=${token}`;
    expect((await call("/dashboard/admin", { cookie })).status).toBe(200);

    await elsewhere.store
      .update(elsewhere.store.t.accounts)
      .set({ isAdmin: false })
      .where(eq(elsewhere.store.t.accounts.id, account.id));
    expect((await call("/dashboard/admin", { cookie })).status).toBe(404);
    expect((await call("/dashboard", { cookie })).status).toBe(200);

    // A new password ends every session of the account, on every replica.
    await setAccountPassword(elsewhere.store, account.id, "a new passphrase for the replicas");
    const after = await call("/dashboard", { cookie, redirect: "manual" });
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toStartWith("/signin");
  }, 60_000);
});
