import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { inTransaction } from "../../src/db/transaction.ts";
import { createAccount } from "../../src/access/accounts.ts";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { events, webhookDeliveries, webhookEndpoints } from "../../src/db/schema.ts";
import { appendEvent } from "../../src/events/log.ts";
import {
  createEndpoint,
  deliveryLog,
  disabledForFailing,
  resendDelivery,
  rotateSecret,
  setEndpointEnabled,
  WebhookSettingsError,
} from "../../src/webhooks/endpoints.ts";
import { postWebhook } from "../../src/webhooks/http-post.ts";
import { DISABLE_AFTER_FAILING_MS, RETRY_DELAYS_MS, retryDelay } from "../../src/webhooks/retry-schedule.ts";
import { parseWebhookUrl, resolveTarget, type TargetPolicy } from "../../src/webhooks/target-policy.ts";
import { DeliveryWorker } from "../../src/webhooks/worker.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { defined } from "../support/defined.ts";

const loopbackOnly: TargetPolicy = { allowPrivate: true, resolve: async () => ["127.0.0.1"] };
let receiver: WebhookReceiver | undefined;
afterEach(() => receiver?.stop());

async function setup() {
  const db = openMemoryDatabase();
  // Near the real time: receivers refuse signatures whose timestamp is more than five minutes off.
  const clock = new ManualClock(Date.now());
  const account = await createAccount(db, { email: `hooks${Math.random()}@example.com`, tier: "starter" }, clock.now());
  receiver = startWebhookReceiver();
  const { endpoint, secret } = await createEndpoint(db, account.id, {
    url: receiver.url,
    eventTypes: [],
    allowPrivate: true,
    now: clock.now(),
  });
  receiver.secret = secret;
  const worker = new DeliveryWorker(db, clock, loopbackOnly, { random: () => 0.5 });
  const append = () =>
    inTransaction(db, (tx) =>
      appendEvent(tx, { accountId: account.id, type: "data.updated", payload: { series: 3 }, at: clock.now() }),
    );
  return { db, clock, account, endpoint, worker, append, receiver };
}

describe("webhook delivery", () => {
  test("an appended event is delivered once, signed so the standardwebhooks verifier accepts it", async () => {
    const { db, worker, append, receiver, account, endpoint } = await setup();
    const event = await append();
    await worker.tick();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(defined(delivery, "delivery").verified).toMatchObject({
      type: "data.updated",
      data: { id: event.id, series: 3 },
    });
    expect(defined(delivery, "delivery").headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const log = await deliveryLog(db, account.id, endpoint.id);
    expect(log[0]).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 204, eventType: "data.updated" });
    await worker.tick();
    expect(receiver.received).toHaveLength(1); // delivered means not sent again
  });

  test("a receiver that is down is retried on the backoff schedule until it answers, under one webhook-id", async () => {
    const { db, clock, worker, append, receiver } = await setup();
    receiver.mode = 503;
    await append();
    await worker.tick();
    let row = defined(db.select().from(webhookDeliveries).get(), "db.select().from(webhookDeliveries).get()");
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 503 });
    expect(row.nextAttemptAt).toBe(clock.now() + RETRY_DELAYS_MS[0]);
    await worker.tick(); // not due yet
    expect(receiver.received).toHaveLength(1);
    clock.advance(RETRY_DELAYS_MS[0]);
    receiver.mode = 200;
    await worker.tick();
    row = defined(db.select().from(webhookDeliveries).get(), "db.select().from(webhookDeliveries).get()");
    expect(row).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(receiver.received.every((r) => r.verified !== null)).toBe(true);
  });

  test("the schedule spans more than a day with jitter, then gives up", async () => {
    const total = RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThan(24 * 3_600_000);
    expect(retryDelay(1, () => 0)).toBe(4_000);
    expect(retryDelay(1, () => 1)).toBe(6_000);
    expect(retryDelay(RETRY_DELAYS_MS.length + 1)).toBeNull();
  });

  test("an endpoint failing for days is disabled and the account gets a webhook.disabled event", async () => {
    const { db, clock, worker, append, receiver, endpoint, account } = await setup();
    receiver.mode = 500;
    await append();
    await worker.tick();
    clock.advance(DISABLE_AFTER_FAILING_MS);
    await append();
    await worker.tick();
    const stored = defined(
      db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)).get(),
      "the endpoint row",
    );
    expect(stored.enabled).toBe(false);
    expect(stored.disabledReason).toContain("failed");
    const disabled = db.select().from(events).where(eq(events.type, "webhook.disabled")).all();
    expect(disabled).toHaveLength(1);
    expect(defined(disabled[0], "disabled[0]").accountId).toBe(account.id);
    expect(await disabledForFailing(db, account.id)).toEqual([
      { url: endpoint.url, reason: defined(stored.disabledReason, "stored.disabledReason") },
    ]);
    await setEndpointEnabled(db, account.id, endpoint.id, true);
    await setEndpointEnabled(db, account.id, endpoint.id, false); // switched off by its holder: no failure notice
    expect(await disabledForFailing(db, account.id)).toEqual([]);
    const before = receiver.received.length;
    await append();
    clock.advance(DISABLE_AFTER_FAILING_MS);
    await worker.tick();
    expect(receiver.received.length).toBe(before);
  });

  test("resend sends a delivery again under the same id; a rotated secret signs the next attempt", async () => {
    const { db, clock, worker, append, receiver, account, endpoint } = await setup();
    await append();
    await worker.tick();
    const id = defined(receiver.received[0], "receiver.received[0]").id;
    receiver.secret = await rotateSecret(db, account.id, endpoint.id);
    await resendDelivery(db, account.id, id, clock.now());
    await worker.tick();
    expect(receiver.received.map((r) => r.id)).toEqual([id, id]);
    expect(defined(receiver.received[1], "receiver.received[1]").verified).not.toBeNull();
    await expect(resendDelivery(db, "acct_other", id, clock.now())).rejects.toThrow(WebhookSettingsError);
  });

  test("a hanging receiver times out and the delivery stays pending", async () => {
    receiver = startWebhookReceiver();
    receiver.mode = "hang";
    const outcome = await postWebhook(new URL(receiver.url), {}, "{}", loopbackOnly, 300);
    expect(outcome).toEqual({ ok: false, statusCode: null, error: "no answer within 0.3 s" });
  });

  test("redirects are not followed", async () => {
    const target = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } }),
    });
    try {
      const outcome = await postWebhook(new URL(`http://127.0.0.1:${target.port}/`), {}, "{}", loopbackOnly);
      expect(outcome).toEqual({ ok: false, statusCode: 302, error: "redirects are not followed" });
    } finally {
      target.stop(true);
    }
  });
});

describe("where webhooks may go", () => {
  const publicOnly = (answers: string[][]): TargetPolicy => {
    let call = 0;
    return {
      allowPrivate: false,
      resolve: async () =>
        defined(answers[Math.min(call++, answers.length - 1)], "answers[Math.min(call++, answers.length - 1)]"),
    };
  };

  test("https and public addresses only, unless private targets are allowed", async () => {
    expect(() => parseWebhookUrl("http://hooks.example.com/x", false)).toThrow("must be an https URL");
    expect(() => parseWebhookUrl("https://127.0.0.1/x", false)).toThrow("public address");
    expect(() => parseWebhookUrl("https://[::1]/x", false)).toThrow("public address");
    expect(() => parseWebhookUrl("https://user:pw@hooks.example.com/", false)).toThrow("user name");
    expect(() => parseWebhookUrl("not a url", false)).toThrow("is not a URL");
    expect(parseWebhookUrl("https://hooks.example.com/x#frag", false).href).toBe("https://hooks.example.com/x");
    expect(parseWebhookUrl("http://127.0.0.1:9/x", true).href).toBe("http://127.0.0.1:9/x");
  });

  test("a host resolving to a private, loopback, link-local or mapped address is refused", async () => {
    const url = new URL("https://hooks.example.com/");
    for (const address of [
      "10.1.2.3",
      "192.168.0.1",
      "127.0.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
    ]) {
      expect(resolveTarget(url, publicOnly([[address]]))).rejects.toThrow("not a public address");
    }
    expect(resolveTarget(url, publicOnly([["93.184.215.14", "10.0.0.1"]]))).rejects.toThrow("not a public address");
    expect(await resolveTarget(url, publicOnly([["93.184.215.14"]]))).toBe("93.184.215.14");
  });

  test("a DNS answer that changes to a private address after the URL was accepted is refused at delivery", async () => {
    const policy = publicOnly([["93.184.215.14"], ["127.0.0.1"]]);
    const url = parseWebhookUrl("https://rebind.example.com/hook", false);
    expect(await resolveTarget(url, policy)).toBe("93.184.215.14");
    const outcome = await postWebhook(url, {}, "{}", policy);
    expect(outcome).toEqual({
      ok: false,
      statusCode: null,
      error: "rebind.example.com resolves to 127.0.0.1, which is not a public address",
    });
  });
});
