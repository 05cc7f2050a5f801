/**
 * Reads XLSX workbooks in a Bun Worker, one workbook at a time, so the server's event loop never
 * waits on exceljs (docs/batch.md, "Reading a workbook"). Each read gets a fresh worker that is
 * terminated when it answers, fails or overruns: a crash or a hang costs that upload only.
 */

/** The worker's answer: the header's column names and each lane's cells in that order, or what is wrong. */
export type XlsxReadReply = { columns: string[]; rows: string[][] } | { problem: string };

/** Why a read ended without an answer from the worker. */
export type XlsxReadFailure = "crashed" | "timed out";

export class XlsxReadError extends Error {
  constructor(readonly failure: XlsxReadFailure) {
    super(`the XLSX reader ${failure}`);
  }
}

/** Far above the ~1 s a 10,000-lane workbook takes on a busy machine; a workbook slower than this is refused. */
export const READ_TIMEOUT_MS = 30_000;

// The worker is a separate entrypoint of the compiled binary (scripts/build.ts). From source it sits
// beside this file; inside the executable every module is bundled into one file at the root of the
// embedded file system, and the worker keeps its path below src/ there.
const WORKER_URL = import.meta.url.startsWith("file:///$bunfs/")
  ? new URL("./batch/xlsx-read.worker.ts", import.meta.url)
  : new URL("./xlsx-read.worker.ts", import.meta.url);

let queue: Promise<unknown> = Promise.resolve();

/** The workbook's first worksheet as read by the worker; reads wait their turn. */
export function readXlsx(bytes: Uint8Array): Promise<XlsxReadReply> {
  const turn = queue.then(() => readInWorker(bytes));
  queue = turn.catch(() => undefined);
  return turn;
}

function readInWorker(bytes: Uint8Array): Promise<XlsxReadReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL);
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
    };
    const timer = setTimeout(() => {
      done();
      reject(new XlsxReadError("timed out"));
    }, READ_TIMEOUT_MS);
    worker.onmessage = (event: MessageEvent<XlsxReadReply>) => {
      done();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      done();
      reject(new XlsxReadError("crashed"));
    };
    // A copy is handed over, so the caller's bytes stay readable whatever becomes of the worker.
    const own = bytes.slice();
    worker.postMessage(own, [own.buffer]);
  });
}
