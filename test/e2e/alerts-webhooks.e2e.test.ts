import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryInEmptyFolder, runCli, startBinary, type RunningServer } from "../support/binary.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { defined } from "../support/defined.ts";

/**
 * Alerts, events and webhooks against the compiled binary: an alert created over the API, a CLI import
 * that crosses it, the event in /v1/events and its signed delivery verified by a local receiver; a
 * receiver that is down and then up; and a SIGKILL while a delivery is in flight.
 */
let exe: string;
let dir: string;
const servers: RunningServer[] = [];
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  ({ exe, dir } = await binaryInEmptyFolder());
});
afterAll(async () => {
  for (const server of servers) if (server.process.exitCode === null) await server.stop("SIGKILL");
  for (const receiver of receivers) receiver.stop();
});

function cli(...args: string[]) {
  const result = runCli(exe, args, dir);
  if (result.exitCode !== 0) throw new Error(`waybill ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

async function serve(db: string): Promise<RunningServer> {
  const server = await startBinary(exe, ["--db", db, "--allow-private-webhooks"], { cwd: dir });
  servers.push(server);
  return server;
}

/** An account with a key and a webhook endpoint pointing at a fresh local receiver. */
function accountWithWebhook(db: string, email: string, events?: string) {
  cli("accounts", "create", "--email", email, "--tier", "starter", "--db", db);
  const receiver = startWebhookReceiver();
  receivers.push(receiver);
  const added = JSON.parse(
    cli(
      "webhooks",
      "add",
      "--email",
      email,
      "--url",
      receiver.url,
      ...(events ? ["--events", events] : []),
      "--allow-private-webhooks",
      "--json",
      "--db",
      db,
    ),
  );
  receiver.secret = added.secret;
  const key = JSON.parse(cli("keys", "create", "--email", email, "--json", "--db", db)).key as string;
  return { receiver, key };
}

const dayBefore = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

describe("alerts and webhooks in the binary", () => {
  test("an import crossing an alert's threshold: event in /v1/events and a verified signed delivery", async () => {
    const db = "alerts.db";
    const { receiver, key } = accountWithWebhook(db, "alerts@example.com", "alert.triggered");
    const server = await serve(db);
    const call = (path: string, init: RequestInit = {}) =>
      fetch(server.url + path, {
        ...init,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      });

    const created = (await (
      await call("/v1/alerts", {
        method: "POST",
        body: JSON.stringify({
          condition: { metric: "diesel_price", region: "NATIONAL" },
          direction: "ABOVE",
          threshold: 9,
        }),
      })
    ).json()) as { alert: { id: string; state: { firing: boolean } } };
    expect(created.alert.state.firing).toBe(false);

    const file = join(dir, "eia-spike.json");
    writeFileSync(
      file,
      JSON.stringify({
        response: { data: [{ period: dayBefore(1), series: "EMD_EPD2D_PTE_NUS_DPG", value: "9.875" }] },
      }),
    );
    cli("data", "import", "eia", file, "--db", db);

    const [delivery] = await receiver.waitFor(1, 20_000);
    const verified = delivery?.verified as { data: { id: string } } | undefined;
    expect(verified).toMatchObject({
      type: "alert.triggered",
      data: { alert_id: created.alert.id, measurement: { value: 9.875 } },
    });
    const events = (await (await call("/v1/events?type=alert.triggered")).json()) as {
      events: { id: string; data: { measurement: { factor_versions: unknown[] } } }[];
    };
    expect(events.events).toHaveLength(1);
    const [event] = events.events;
    expect(event?.id).toBe(defined(verified, "the verified delivery").data.id);
    expect(event?.data.measurement.factor_versions[0]).toMatchObject({
      series_id: "EMD_EPD2D_PTE_NUS_DPG",
      value: 9.875,
      observation_date: dayBefore(1),
    });
    const all = (await (await call("/v1/events")).json()) as { events: { type: string }[] };
    expect(all.events.map((e: { type: string }) => e.type)).toEqual(["key.created", "data.updated", "alert.triggered"]);
    expect(receiver.received).toHaveLength(1); // subscribed to alert.triggered only
  }, 60_000);

  test("an alert created while its condition already holds fires at once: event and a verified delivery", async () => {
    const db = "alerts-at-once.db";
    const { receiver, key } = accountWithWebhook(db, "holds@example.com", "alert.triggered");
    const server = await serve(db);
    const created = (await (
      await fetch(`${server.url}/v1/alerts`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          condition: { metric: "diesel_price", region: "NATIONAL" },
          direction: "ABOVE",
          threshold: 0.5,
        }),
      })
    ).json()) as { alert: { id: string; state: { firing: boolean } }; fired: { event_id: string; type: string } };
    expect(created.alert.state.firing).toBe(true);
    expect(created.fired.type).toBe("alert.triggered");
    const [delivery] = await receiver.waitFor(1, 20_000);
    expect(delivery?.verified).toMatchObject({
      type: "alert.triggered",
      data: { id: created.fired.event_id, alert_id: created.alert.id, threshold: 0.5 },
    });
  }, 60_000);

  test("a receiver that is down gets the delivery when it comes back, under the same webhook-id", async () => {
    const db = "retry.db";
    const { receiver } = accountWithWebhook(db, "retry@example.com");
    receiver.mode = 503;
    await serve(db); // key.created is already in the outbox
    await receiver.waitFor(1, 15_000);
    receiver.mode = 204;
    const [refused, retried] = await receiver.waitFor(2, 20_000); // the first retry comes 4-6 s later
    expect(retried?.id).toBe(defined(refused, "the refused delivery").id);
    expect(retried?.verified).toMatchObject({ type: "key.created" });
    await Bun.sleep(7_000);
    expect(receiver.received).toHaveLength(2); // delivered: not sent again
  }, 60_000);

  test("kill -9 while a delivery is in flight: after the restart it is sent again and verified", async () => {
    const db = "crash.db";
    const { receiver } = accountWithWebhook(db, "crash@example.com", "key.revoked");
    receiver.mode = "hang";
    const first = await serve(db);
    cli("keys", "revoke", "--email", "crash@example.com", "--db", db);
    const [inFlight] = await receiver.waitFor(1, 15_000);
    expect(await first.stop("SIGKILL")).not.toBe(0);

    receiver.mode = 200;
    await serve(db);
    const received = await receiver.waitFor(2, 20_000);
    const resent = defined(received[1], "the delivery resent after the restart");
    expect(resent.id).toBe(defined(inFlight, "the delivery in flight").id);
    expect(resent.verified).toMatchObject({ type: "key.revoked" });
  }, 60_000);
});
