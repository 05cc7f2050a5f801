/**
 * Which database failures a caller sees as 503 SERVICE_UNAVAILABLE (docs/postgresql.md, "When
 * PostgreSQL goes away"), with errors a real PostgreSQL and Bun's client really produce, through
 * drizzle, as the storage code meets them: a refused connection and a backend killed by the server
 * are "unreachable"; a query the server rejects is a fault of ours and stays INTERNAL_ERROR.
 */
import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { openPostgres } from "../../src/db/postgres.ts";
import { errorResponse, isDatabaseUnreachable } from "../../src/errors.ts";
import { usePostgres } from "../support/postgres.ts";

const postgres = usePostgres();

/** The error a storage call rejects with, as a route would catch it. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("the work did not fail");
}

async function asResponse(error: unknown) {
  const response = errorResponse(error, "req_test");
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

test("a backend killed by the server (pg_terminate_backend) and a server nobody answers at are unreachable: 503 with Retry-After", async () => {
  const url = await postgres.freshDatabase();
  const store = await openPostgres(`${url}?max=1`);
  try {
    const pid = (await store.$client`select pg_backend_pid() as pid`)[0].pid as number;
    const killer = await openPostgres(url);
    await killer.$client`select pg_terminate_backend(${pid})`;
    await killer.$client.close();
    const killed = await failureOf(() => store.select({ n: sql`1` }).from(store.t.settings));
    expect(isDatabaseUnreachable(killed)).toBe(true);
    expect(await asResponse(killed)).toMatchObject({
      status: 503,
      retryAfter: "2",
      body: { error: "SERVICE_UNAVAILABLE", retry_after: 2, request_id: "req_test" },
    });
    // The pool opens a new connection for the next statement: the store works again by itself.
    expect(await store.select({ key: store.t.settings.key }).from(store.t.settings)).toBeArray();
  } finally {
    await store.$client.close();
  }

  const nobody = new URL(url);
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  nobody.port = String(probe.port);
  probe.stop(true); // a port nobody listens on now
  const refused = await failureOf(() => openPostgres(nobody.href));
  expect(isDatabaseUnreachable(refused)).toBe(true);
  expect((await asResponse(refused)).status).toBe(503);
});

test("a statement the server rejects is not an outage: 500 INTERNAL_ERROR, nothing of it in the body", async () => {
  const store = await openPostgres(await postgres.freshDatabase());
  try {
    const rejected = await failureOf(() => store.select({ n: sql`no_such_column` }).from(store.t.settings));
    expect(isDatabaseUnreachable(rejected)).toBe(false);
    const response = await asResponse(rejected);
    expect(response).toMatchObject({ status: 500, retryAfter: null, body: { error: "INTERNAL_ERROR" } });
    expect(JSON.stringify(response.body)).not.toContain("no_such_column");
  } finally {
    await store.$client.close();
  }
});
