import { Database, type Statement } from "bun:sqlite";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./client.ts";

/**
 * WAL checkpoints off the request thread. SQLite's automatic checkpoint runs inside whichever
 * commit crosses 1000 WAL pages: that commit copies the pages into the database file and fsyncs it
 * while every request waits on the event loop, which is what set the p99. Instead the server
 * connection stops checkpointing, and a Worker with its own connection does it on a timer:
 *
 * - every tick, a PASSIVE checkpoint copies committed frames into the database file. It never takes
 *   or waits for the write lock, so commits go on while it works. This is the bulk of the work.
 * - a PASSIVE checkpoint alone cannot bound the WAL under steady writes: the file only starts over
 *   when a commit begins with every frame already copied, and some commit always lands while the
 *   checkpoint runs. So once the file passes `walSizeLimitBytes`, the tick ends with a TRUNCATE
 *   checkpoint. That one holds the write lock, but only to copy the few frames written since the
 *   PASSIVE pass and to empty the file: a pause of a few ms for the server, once per that many bytes.
 *
 * This file is both the starter (main thread) and the worker. It is a build entrypoint of its own
 * (scripts/build.ts), so the binary embeds it below the entrypoints' common folder, src/: at
 * /$bunfs/root/db/checkpointer.js, where import.meta.dir is /$bunfs/root for every module.
 */
const WORKER_URL = Bun.isStandaloneExecutable
  ? join(import.meta.dir, "db", "checkpointer.js")
  : new URL("./checkpointer.ts", import.meta.url).href;

export interface CheckpointerOptions {
  /** How often the worker checkpoints. */
  intervalMs?: number;
  /** Past this size the WAL file is emptied (TRUNCATE) at the end of the next tick. */
  walSizeLimitBytes?: number;
}

export interface Checkpointer {
  /** Finish the checkpoint under way, close the worker's connection and end the worker. */
  stop(): Promise<void>;
}

type WorkerSettings = { file: string } & Required<CheckpointerOptions>;
type ToWorker = ({ type: "start" } & WorkerSettings) | { type: "stop" };
type FromWorker = { type: "started" } | { type: "stopped" } | { type: "failed"; message: string };

/**
 * Start the worker and hand checkpointing over to it. Throws (and leaves SQLite's own checkpoints
 * on) when the worker cannot open the database.
 */
export async function startCheckpointer(
  db: Db,
  { intervalMs = 200, walSizeLimitBytes = 64 * 1024 * 1024 }: CheckpointerOptions = {},
): Promise<Checkpointer> {
  const sqlite = db.$client;
  const worker = new Worker(WORKER_URL);
  let awaiting: ((message: FromWorker) => void) | undefined;
  const receive = (message: FromWorker) => {
    if (awaiting) awaiting(message);
    else if (message.type === "failed") console.error(`checkpointer: ${message.message}`);
  };
  worker.onmessage = (event: MessageEvent<FromWorker>) => receive(event.data);
  worker.onerror = (event) => receive({ type: "failed", message: event.message });
  const exchange = (message: ToWorker) =>
    new Promise<FromWorker>((resolve) => {
      awaiting = (reply) => {
        awaiting = undefined;
        resolve(reply);
      };
      worker.postMessage(message);
    });

  const reply = await exchange({ type: "start", file: sqlite.filename, intervalMs, walSizeLimitBytes });
  if (reply.type !== "started") {
    worker.terminate();
    throw new Error(`the checkpoint worker could not start: ${reply.type === "failed" ? reply.message : reply.type}`);
  }
  sqlite.run("PRAGMA wal_autocheckpoint = 0");

  return {
    async stop() {
      await exchange({ type: "stop" });
      worker.terminate();
      // Back to SQLite's own checkpoints for whatever this connection still writes.
      sqlite.run("PRAGMA wal_autocheckpoint = 1000");
    },
  };
}

/** The worker side: its own connection, one tick per interval. */
function runCheckpointWorker(): void {
  let connection: Database | undefined;
  let statements: Statement[] = [];
  let timer: ReturnType<typeof setInterval> | undefined;
  const post = (message: FromWorker) => postMessage(message);
  const failed = (error: unknown): FromWorker => ({ type: "failed", message: (error as Error).message });

  const start = ({ file, intervalMs, walSizeLimitBytes }: WorkerSettings) => {
    connection = new Database(file, { readwrite: true, create: false });
    // The checkpoint's fsyncs follow this connection's setting: FULL, like the server's.
    connection.run("PRAGMA synchronous = FULL");
    // TRUNCATE waits this long for the server's current group transaction to end.
    connection.run("PRAGMA busy_timeout = 5000");
    const passive = connection.prepare("PRAGMA wal_checkpoint(PASSIVE)");
    const truncate = connection.prepare("PRAGMA wal_checkpoint(TRUNCATE)");
    statements = [passive, truncate];
    const walBytes = () => {
      try {
        return statSync(`${file}-wal`).size;
      } catch {
        return 0; // no WAL file yet
      }
    };
    timer = setInterval(() => {
      try {
        if (walBytes() === 0) return;
        passive.run();
        if (walBytes() > walSizeLimitBytes) truncate.run();
      } catch (error) {
        post(failed(error)); // e.g. SQLITE_BUSY while a backup holds the checkpoint lock: next tick tries again
      }
    }, intervalMs);
  };

  self.onmessage = (event: MessageEvent<ToWorker>) => {
    const message = event.data;
    if (message.type === "start") {
      try {
        start(message);
        post({ type: "started" });
      } catch (error) {
        post(failed(error));
      }
    } else {
      clearInterval(timer);
      for (const statement of statements) statement.finalize();
      connection?.close();
      post({ type: "stopped" });
    }
  };
}

if (!Bun.isMainThread) runCheckpointWorker();
