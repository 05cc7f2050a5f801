// The sending half of the open-loop client (fixed-rate.ts): one prebuilt HTTP/1.1 request, sent over
// a pool of keep-alive sockets (Bun.connect), one request per socket at a time. It parses only what
// it needs to know a response is whole (status line, Content-Length or chunked framing), so the
// client adds a fraction of a millisecond to a latency where `fetch` added about one, and its own
// garbage collections stay short (docs/performance.md, "The open-loop client").
import type { Socket } from "bun";
import { defined } from "../support/defined.ts";

const HEADER_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");
/** Sockets opened up front; more are opened when every one is busy. */
const INITIAL_SOCKETS = 16;

interface Connection {
  socket: Socket<Connection> | null;
  /** Due time (performance.now()) of the request in flight on this socket, or null when it is idle. */
  dueAt: number | null;
  received: Buffer | null;
  /** The part of the request the socket did not take yet (sent on drain). */
  unsent: Uint8Array | null;
}

/** What the pool tells its owner about each request: when it was due, and whether it was answered 200. */
export type Answered = (dueAt: number, ok: boolean) => void;

export class KeepAliveSender {
  /** Connected and not yet closed. */
  private readonly connections = new Set<Connection>();
  private readonly idle: Connection[] = [];
  private readonly waiting: number[] = [];
  private opening = 0;
  private closing = false;

  constructor(
    private readonly target: URL,
    private readonly request: Uint8Array,
    private readonly maxSockets: number,
    private readonly answered: Answered,
  ) {}

  /** Open the first sockets, so the first requests do not wait for a connect. */
  async warm(): Promise<void> {
    await Promise.all(Array.from({ length: Math.min(INITIAL_SOCKETS, this.maxSockets) }, () => this.open()));
  }

  /** Send a request due at `dueAt` now, or as soon as a socket is free (its latency still counts from `dueAt`). */
  send(dueAt: number): void {
    const connection = this.idle.pop();
    if (connection) {
      this.write(connection, dueAt);
      return;
    }
    this.waiting.push(dueAt);
    if (this.connections.size + this.opening < this.maxSockets) void this.open();
  }

  /** Let go of every socket, also those still waiting for an answer: the owner has given up on them, and hears no more. */
  close(): void {
    this.closing = true;
    this.idle.length = 0;
    for (const connection of this.connections) connection.socket?.end();
  }

  private write(connection: Connection, dueAt: number): void {
    connection.dueAt = dueAt;
    this.flush(connection, this.request);
  }

  /** Bun's socket write takes what fits and returns how much: the rest waits for drain. */
  private flush(connection: Connection, bytes: Uint8Array): void {
    const written = defined(connection.socket, "connection.socket").write(bytes);
    connection.unsent = written < bytes.length ? bytes.subarray(Math.max(written, 0)) : null;
  }

  private async open(): Promise<void> {
    this.opening += 1;
    const connection: Connection = { socket: null, dueAt: null, received: null, unsent: null };
    try {
      connection.socket = await Bun.connect<Connection>({
        hostname: this.target.hostname,
        port: Number(this.target.port),
        data: connection,
        socket: {
          data: (socket, chunk) => this.receive(socket.data, chunk),
          drain: (socket) => {
            if (socket.data.unsent) this.flush(socket.data, socket.data.unsent);
          },
          close: (socket) => this.lost(socket.data),
          error: (socket) => this.lost(socket.data),
        },
      });
      connection.socket.setNoDelay(true);
      this.connections.add(connection);
      this.release(connection);
    } catch {
      // A refused connect fails the oldest waiting request, so a run always ends.
      const dueAt = this.waiting.shift();
      if (dueAt !== undefined) this.answered(dueAt, false);
    } finally {
      this.opening -= 1;
    }
  }

  /** A socket is free: give it the oldest waiting request, or keep it for the next. */
  private release(connection: Connection): void {
    if (!this.connections.has(connection)) return;
    const dueAt = this.waiting.shift();
    if (dueAt !== undefined) this.write(connection, dueAt);
    else this.idle.push(connection);
  }

  private receive(connection: Connection, chunk: Buffer): void {
    const data = connection.received ? Buffer.concat([connection.received, chunk]) : chunk;
    const headerEnd = data.indexOf(HEADER_END);
    const head = headerEnd < 0 ? "" : data.subarray(0, headerEnd).toString("latin1");
    if (headerEnd < 0 || !isWhole(head, data.subarray(headerEnd + HEADER_END.length))) {
      connection.received = Buffer.from(data);
      return;
    }
    connection.received = null;
    const dueAt = defined(connection.dueAt, "connection.dueAt");
    connection.dueAt = null;
    this.answered(dueAt, head.startsWith("HTTP/1.1 200"));
    if (/\r\nconnection:\s*close/i.test(head)) defined(connection.socket, "connection.socket").end();
    else this.release(connection);
  }

  /** The server closed a socket: a request in flight on it has failed. */
  private lost(connection: Connection): void {
    if (!this.connections.delete(connection)) return;
    const index = this.idle.indexOf(connection);
    if (index >= 0) this.idle.splice(index, 1);
    if (connection.dueAt !== null && !this.closing) this.answered(connection.dueAt, false);
    if (this.waiting.length > 0 && this.connections.size + this.opening < this.maxSockets) void this.open();
  }
}

function isWhole(head: string, body: Buffer): boolean {
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) return body.length >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return chunkedBodyEnds(body);
  return true;
}

/** Walks the chunks (size line, data, CRLF) up to the last, empty one and the blank line after any trailers. */
function chunkedBodyEnds(body: Buffer): boolean {
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf(CRLF, at);
    if (lineEnd < 0) return false;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
    // A size line that is not hex ends the walk: the body is taken as whole, and the status decides.
    if (Number.isNaN(size)) return true;
    if (size === 0) return body.indexOf(HEADER_END, lineEnd) >= 0;
    at = lineEnd + CRLF.length + size + CRLF.length;
    if (at > body.length) return false;
  }
}
