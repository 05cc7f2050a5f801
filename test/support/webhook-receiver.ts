import { Webhook } from "standardwebhooks";

export interface ReceivedWebhook {
  id: string;
  body: string;
  headers: Record<string, string>;
  /** The verified payload, or null when the signature did not verify. */
  verified: unknown;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** How the next requests are answered: a status, or "hang" (hold the request open). */
  mode: number | "hang";
  secret: string | undefined;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  stop(): void;
}

/** A real HTTP receiver on 127.0.0.1 that verifies every delivery with the standardwebhooks package. */
export function startWebhookReceiver(port = 0): WebhookReceiver {
  const receiver: WebhookReceiver = {
    url: "",
    received: [],
    mode: 204,
    secret: undefined,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.received.length < count && Date.now() < deadline) await Bun.sleep(25);
      if (receiver.received.length < count)
        throw new Error(`expected ${count} webhooks, got ${receiver.received.length}`);
      return receiver.received;
    },
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port,
    hostname: "127.0.0.1",
    async fetch(request) {
      const body = await request.text();
      const headers = request.headers.toJSON();
      let verified: unknown = null;
      try {
        verified = receiver.secret ? new Webhook(receiver.secret).verify(body, headers) : null;
      } catch {
        verified = null;
      }
      receiver.received.push({ id: headers["webhook-id"] ?? "", body, headers, verified });
      if (receiver.mode === "hang") return new Promise<Response>(() => {});
      return new Response("ok", { status: receiver.mode });
    },
  });
  receiver.url = `http://127.0.0.1:${server.port}/hooks`;
  return receiver;
}
