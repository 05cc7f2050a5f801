import { afterEach, expect, test } from "bun:test";
import { KeepAliveSender } from "./keep-alive-sender.ts";

const request = (path: string) =>
  Buffer.from(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  );

let server: ReturnType<typeof Bun.serve> | undefined;
afterEach(() => server?.stop(true));

/** Send `count` requests to `url` at once through a pool of at most `maxSockets`; resolves with each outcome in the order answered. */
function sendAll(url: string, count: number, maxSockets = 4): Promise<{ dueAt: number; ok: boolean }[]> {
  const outcomes: { dueAt: number; ok: boolean }[] = [];
  return new Promise((resolve) => {
    const target = new URL(url);
    const sender = new KeepAliveSender(target, request(target.pathname), maxSockets, (dueAt, ok) => {
      outcomes.push({ dueAt, ok });
      if (outcomes.length === count) {
        sender.close();
        resolve(outcomes);
      }
    });
    void sender.warm().then(() => {
      for (let i = 0; i < count; i++) sender.send(i);
    });
  });
}

test("every request is answered once, over sockets reused one request at a time, whatever the framing", async () => {
  const seen: string[] = [];
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      seen.push(req.url);
      const path = new URL(req.url).pathname;
      if (path === "/chunked") {
        // A body that trickles out goes with chunked framing, no Content-Length; one piece looks like the last chunk.
        const pieces = ["x".repeat(5000), "0\r\n\r\n", "z"];
        return new Response(
          new ReadableStream({
            async pull(controller) {
              await Bun.sleep(1);
              const piece = pieces.shift();
              if (piece === undefined) controller.close();
              else controller.enqueue(new TextEncoder().encode(piece));
            },
          }),
        );
      }
      if (path === "/refused") return new Response("no", { status: 503 });
      return new Response("y".repeat(70_000)); // larger than one read: the response arrives in pieces
    },
  });
  for (const [path, ok] of [
    ["/whole", true],
    ["/chunked", true],
    ["/refused", false],
  ] as const) {
    seen.length = 0;
    const outcomes = await sendAll(`http://127.0.0.1:${server.port}${path}`, 40);
    expect(outcomes).toHaveLength(40);
    expect(outcomes.every((outcome) => outcome.ok === ok)).toBe(true);
    expect(new Set(outcomes.map((outcome) => outcome.dueAt)).size).toBe(40);
    expect(seen).toHaveLength(40);
  }
});

test("a socket the server closes fails the request in flight on it, and the rest go out on new sockets", async () => {
  // A bare TCP server, so a connection can be dropped with no answer: every fifth request is.
  let requests = 0;
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket, chunk) {
        for (let at = chunk.indexOf("POST "); at >= 0; at = chunk.indexOf("POST ", at + 1)) {
          requests += 1;
          if (requests % 5 === 0) return void socket.end();
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
        }
      },
    },
  });
  try {
    const outcomes = await sendAll(`http://127.0.0.1:${listener.port}/`, 20, 2);
    expect(outcomes).toHaveLength(20);
    expect(outcomes.filter((outcome) => !outcome.ok)).toHaveLength(4);
    expect(requests).toBe(20);
  } finally {
    listener.stop(true);
  }
});
