import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ManualClock } from "../../src/clock.ts";
import { IDEMPOTENCY_WINDOW_MS } from "../../src/http/routes/v1/idempotency.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance();
});
afterAll(() => server.stop());

type Body = Record<string, unknown>;

const lookup = (key: string, idempotencyKey: string, json: unknown = CHICAGO_TO_DALLAS, path = "/v1/rates/lookup") =>
  server.call(path, { method: "POST", key, json, headers: { "idempotency-key": idempotencyKey } });

async function monthUsed(key: string): Promise<number> {
  const usage = (await (await server.call("/v1/usage", { key })).json()) as { quota: { used: number } };
  return usage.quota.used;
}

const receiptCount = () =>
  defined(server.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM receipts").get(), "the receipt count")
    .n;

describe("Idempotency-Key on POST skills", () => {
  test("a retry returns the first answer and its receipt, and costs nothing", async () => {
    const { key } = await server.accountWithKey("explorer");
    const first = await lookup(key, "retry-1");
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as Body;
    const receiptsAfterFirst = receiptCount();

    const retry = await lookup(key, "retry-1");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotency-replayed")).toBe("true");
    expect(await retry.json()).toEqual(firstBody);
    expect(receiptCount()).toBe(receiptsAfterFirst);
    expect(await monthUsed(key)).toBe(1);

    // The invoke transport is the same skill call: the same key replays there too.
    const viaInvoke = await lookup(key, "retry-1", CHICAGO_TO_DALLAS, "/v1/agent/invoke/rate-lookup");
    expect(((await viaInvoke.json()) as Body).receipt_id).toBe(firstBody.receipt_id);
  });

  test("a different request under a used key is 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const { key, authObjId } = await server.accountWithKey("explorer");
    expect((await lookup(key, "same-key")).status).toBe(200);
    const changed = await lookup(key, "same-key", { ...CHICAGO_TO_DALLAS, destination: "Houston, TX" });
    expect(changed.status).toBe(422);
    expect(await changed.json()).toMatchObject({ error: "IDEMPOTENCY_KEY_REUSED", auth_obj_id: authObjId });
    expect(await monthUsed(key)).toBe(1);
  });

  test("keys belong to one account: another account's same key is its own call", async () => {
    const a = await server.accountWithKey("explorer");
    const b = await server.accountWithKey("explorer");
    const first = (await (await lookup(a.key, "shared-name")).json()) as Body;
    const second = (await (await lookup(b.key, "shared-name")).json()) as Body;
    expect(second.receipt_id).not.toBe(first.receipt_id);
    expect(second.auth_obj_id).toBe(b.authObjId);
  });

  test("concurrent duplicates are answered once", async () => {
    const { key } = await server.accountWithKey("explorer");
    const before = receiptCount();
    const replies = await Promise.all(Array.from({ length: 6 }, () => lookup(key, "burst")));
    const bodies = (await Promise.all(replies.map((reply) => reply.json()))) as Body[];
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(bodies.map((body) => body.receipt_id)).size).toBe(1);
    expect(receiptCount()).toBe(before + 1);
    expect(await monthUsed(key)).toBe(1);
  });

  test("a refusal is not stored: the same key may be retried once the cause is fixed", async () => {
    const { key } = await server.accountWithKey("explorer");
    const refused = await lookup(key, "fix-and-retry", { ...CHICAGO_TO_DALLAS, equipment: "SPACESHIP" });
    expect(refused.status).toBe(400);
    const fixed = await lookup(key, "fix-and-retry");
    expect(fixed.status).toBe(200);
  });

  test("after 24 hours the key is free again; a malformed key is a 400", async () => {
    const { key } = await server.accountWithKey("explorer");
    const first = (await (await lookup(key, "day-old")).json()) as Body;
    (server.clock as ManualClock).advance(IDEMPOTENCY_WINDOW_MS + 1000);
    const later = (await (await lookup(key, "day-old")).json()) as Body;
    expect(later.receipt_id).not.toBe(first.receipt_id);
    const stale = defined(
      server.db.$client
        .query<{ n: number }, [number]>("SELECT count(*) AS n FROM idempotent_answers WHERE created_at <= ?")
        .get(server.clock.now() - IDEMPOTENCY_WINDOW_MS),
      "the stale answer count",
    ).n;
    expect(stale).toBe(0);
    const malformed = await lookup(key, "has spaces in it");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: "INVALID_REQUEST", details: [{ field: "Idempotency-Key" }] });
  });
});
