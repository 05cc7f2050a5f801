import type { Database } from "bun:sqlite";

/**
 * Pages in the WAL past which it is started over (SQLite's own default is 1,000). Each restart holds
 * the batches for one short checkpoint (a median 4–5 ms, tens of ms when the disk is busy): at 1,000
 * answers/s and 1,000 pages that was 3–4 restarts a second and 2–4 % of the time held, enough to set
 * the p99 by itself; at 4,000 pages a quarter of that. The file is cut back to WAL_SIZE_LIMIT_BYTES
 * (db/client.ts, just above this many pages) when it starts over (docs/performance.md, "Checkpoints").
 */
export const RESTART_FRAMES = 4000;
/** Checkpoints run at most this often while batches keep coming. */
const EVERY_MS = 100;
/** A worker that has not finished a checkpoint for this long is stuck: COMMIT checkpoints inline again, as SQLite does by default. */
const STUCK_MS = 2000;

/**
 * The worker: its own connection to the same file, one PASSIVE checkpoint per message (it never
 * waits for or blocks a writer). Inline source, so the compiled binary needs no second entry point.
 * The connection keeps SQLite's default synchronous=FULL: the database file is fsynced before the
 * WAL's frames count as copied, so the WAL may start over only once they are durable in the file.
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
self.onmessage = ({ data }) => {
  try {
    if (data.close) {
      db?.close();
      db = null;
      postMessage({ closed: true });
      return;
    }
    if (db === null) {
      db = new Database(data.file);
      db.run("PRAGMA busy_timeout = 5000");
    }
    const [busy, log, checkpointed] = db.query("PRAGMA wal_checkpoint(PASSIVE)").values()[0];
    postMessage({ busy, log, checkpointed });
  } catch (error) {
    postMessage({ error: String(error && error.message ? error.message : error) });
  }
};
`;

interface CheckpointResult {
  busy: number;
  /** Frames in the WAL when the checkpoint ran. */
  log: number;
  /** Frames copied into the database file (all of them when equal to log). */
  checkpointed: number;
}

/**
 * WAL checkpoints off the event loop (docs/performance.md, "Checkpoints"). By default SQLite runs a
 * checkpoint inside the COMMIT that takes the WAL past 1,000 pages: it copies the pages into the
 * database file and fsyncs the WAL and the file, with the whole server waiting. At about 13 pages
 * per group-commit batch that was several times a second, each a stall of milliseconds to tens of
 * milliseconds, and the largest share of p99. Here group-commit batches commit with
 * wal_autocheckpoint off, and a worker thread with its own connection checkpoints at most every
 * EVERY_MS while batches come in, concurrently with them.
 *
 * A checkpoint that runs while batches commit cannot let the WAL start over (new frames keep
 * arriving behind it), and a WAL that never starts over grows, and so does every fsync of it. So
 * once a checkpoint finds the WAL past RESTART_FRAMES with everything copied, `holdFor` keeps the
 * next batches waiting (the event loop keeps parsing and pricing) while one more checkpoint copies
 * the few frames written meanwhile; the first batch after it starts the WAL over.
 *
 * Writes outside group commit keep SQLite's inline checkpoint, and so do batches if the worker has
 * not finished a checkpoint for STUCK_MS: the WAL stays bounded whatever happens to the worker.
 */
export class WalCheckpointer {
  private worker: Worker | null = null;
  /** The checkpoint in progress (never rejects: a failed one resolves null). */
  private running: Promise<CheckpointResult | null> | null = null;
  private lastStarted = 0;
  /** When the oldest checkpoint that has not succeeded yet was started (null: the last one succeeded). */
  private unfinishedSince: number | null = null;
  private closed = false;
  private readonly inlineOff;
  private readonly inlineOn;

  private constructor(
    private readonly file: string,
    sqlite: Database,
  ) {
    this.inlineOff = sqlite.prepare("PRAGMA wal_autocheckpoint = 0");
    this.inlineOn = sqlite.prepare(`PRAGMA wal_autocheckpoint = ${RESTART_FRAMES}`);
  }

  /** For a file database in WAL mode (the group committer only asks for one when it syncs the WAL itself). */
  static for(sqlite: Database): WalCheckpointer {
    return new WalCheckpointer(sqlite.filename, sqlite);
  }

  /** Run a batch's `commit` without SQLite checkpointing inside it (unless the worker is stuck). */
  async deferred<T>(commit: () => Promise<T>): Promise<T> {
    if (this.unfinishedSince !== null && performance.now() - this.unfinishedSince > STUCK_MS) return commit();
    this.inlineOff.run();
    try {
      return await commit();
    } finally {
      this.inlineOn.run();
    }
  }

  /**
   * After a batch committed: start a checkpoint if none is running and the last started EVERY_MS
   * ago. `hold` is given a promise when the next batches must wait for the WAL to start over.
   */
  committed(hold: (until: Promise<void>) => void): void {
    if (this.closed || this.running || performance.now() - this.lastStarted < EVERY_MS) return;
    void this.run().then((result) => {
      if (this.closed || result === null || result.log < RESTART_FRAMES || result.checkpointed < result.log) return;
      // Everything up to the frames this run saw is in the file: copy what came since, with no batch
      // committing meanwhile, and the next batch starts the WAL over.
      hold(this.run().then(() => undefined));
    });
  }

  /** Wait for a running checkpoint and stop the worker (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    // Its connection closes first: a thread stopped with the connection open would leave its locks behind.
    await new Promise<void>((resolve) => {
      worker.onmessage = () => resolve();
      worker.onerror = () => resolve();
      worker.postMessage({ close: true });
    });
    worker.terminate();
  }

  private run(): Promise<CheckpointResult | null> {
    this.lastStarted = performance.now();
    this.unfinishedSince ??= this.lastStarted;
    const worker = this.start();
    const running = new Promise<CheckpointResult>((resolve, reject) => {
      worker.onmessage = ({ data }: MessageEvent<CheckpointResult & { error?: string }>) =>
        data.error ? reject(new Error(data.error)) : resolve(data);
      worker.onerror = (event) => reject(new Error(event.message));
      worker.postMessage({ file: this.file });
    });
    const settled = running.then(
      (result) => {
        this.running = null;
        this.unfinishedSince = null;
        return result;
      },
      () => {
        // A failed checkpoint is retried by the next one; until one succeeds, COMMIT checkpoints inline (deferred()).
        this.running = null;
        return null;
      },
    );
    this.running = settled;
    return settled;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
    const worker = new Worker(url) as Worker & { unref(): void };
    worker.unref(); // a checkpoint never keeps the process alive (Bun's Worker has unref, like Node's)
    this.worker = worker;
    return worker;
  }
}
