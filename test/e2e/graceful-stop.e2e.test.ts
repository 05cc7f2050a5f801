import { expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { binaryFolderForFile, startBinary } from "../support/binary.ts";

const folder = binaryFolderForFile();

/** A raw HTTP/1.1 keep-alive connection that records what it receives and how it ends. */
function keepAlive(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  const seen = { text: "", ended: false, error: "" };
  socket.on("data", (chunk) => {
    seen.text += chunk.toString("latin1");
  });
  socket.on("end", () => {
    seen.ended = true;
  });
  socket.on("error", (error) => {
    seen.error = (error as NodeJS.ErrnoException).code ?? error.message;
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const send = (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  const answers = () => seen.text.split(/(?=HTTP\/1\.1 )/).filter((part) => part.startsWith("HTTP/1.1 "));
  return { socket, seen, send, answers, closed };
}

async function until(condition: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await Bun.sleep(10);
}

test("SIGTERM answers requests already sent on idle keep-alive connections, then closes them with Connection: close", async () => {
  const server = await startBinary(folder.exe, ["--db", "stop.db"], { cwd: folder.dir });
  const port = Number(new URL(server.url).port);
  const connections = Array.from({ length: 4 }, () => keepAlive(port));
  for (const connection of connections) connection.send("/readyz");
  await until(() => connections.every((c) => c.answers().length === 1));
  for (const connection of connections) {
    expect(connection.answers()[0]).toStartWith("HTTP/1.1 200");
    expect(connection.answers()[0]?.toLowerCase()).not.toContain("connection: close");
  }

  // All four are idle keep-alive connections now. Two clients send their next request just before
  // the signal, two once the server has begun to stop: none may be reset or left unanswered.
  connections[0]?.send("/readyz");
  connections[1]?.send("/healthz");
  server.process.kill("SIGTERM");
  await until(() => server.output().includes("SIGTERM: finishing in-flight requests"));
  connections[2]?.send("/readyz");
  connections[3]?.send("/healthz");

  await Promise.all(connections.map((c) => Promise.race([c.closed, Bun.sleep(15_000)])));
  for (const [i, connection] of connections.entries()) {
    const [, second] = connection.answers();
    expect({ i, second: second?.slice(0, 15) }).toEqual({ i, second: "HTTP/1.1 200 OK" });
    // Sent after the signal: the answer itself says the connection closes. (One sent just before may
    // have been answered before the signal was handled; its connection is then closed when idle.)
    if (i >= 2) expect(second?.toLowerCase()).toContain("connection: close");
    expect({ i, ended: connection.seen.ended, error: connection.seen.error }).toEqual({ i, ended: true, error: "" });
  }
  expect(await server.process.exited).toBe(0);
  expect(server.output()).toContain("stopped");
}, 60_000);
