import type { Server } from "bun";

/** How long the server keeps answering after SIGTERM once no request is in flight, and the most it waits. */
const QUIET_MS = 300;
const MOST_MS = 10_000;

/**
 * Stop an HTTP server without dropping a request a client already sent. Bun's `stop(false)` lets
 * in-flight requests finish but closes idle keep-alive connections at once, so a request that was
 * on its way on one (or sitting unread in its socket) was reset. Instead, every answer from now on
 * says `Connection: close`, which makes its client close that connection after it; the server keeps
 * listening until no request is in flight and none has arrived for a moment (bounded), and only then
 * stops, closing the connections still idle.
 */
export async function stopGracefully(
  server: Server<unknown>,
  handle: (request: Request) => Response | Promise<Response>,
  quietMs = QUIET_MS,
  mostMs = MOST_MS,
): Promise<void> {
  const started = performance.now();
  let lastArrival = started;
  // Routes given to Bun directly (Elysia maps its static and compiled routes there) would bypass the
  // new handler: emptied, every request goes through `handle`, which routes it the same way.
  server.reload({
    routes: {},
    async fetch(request: Request) {
      lastArrival = performance.now();
      return closingConnection(await handle(request));
    },
  });
  while (performance.now() - started < mostMs) {
    if (server.pendingRequests === 0 && performance.now() - lastArrival >= quietMs) break;
    await Bun.sleep(Math.min(50, quietMs));
  }
  await server.stop(false);
}

function closingConnection(response: Response): Response {
  try {
    response.headers.set("connection", "close");
    return response;
  } catch {
    // Immutable headers (a response passed through from fetch): the same answer under new headers.
    const headers = new Headers(response.headers);
    headers.set("connection", "close");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
