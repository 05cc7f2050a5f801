import { closeSync, openSync, readSync } from "node:fs";

/** Bytes read so far of a file being imported, for progress reports. */
export type ProgressListener = (bytesRead: number) => void;

const CHUNK = 1 << 20;

/**
 * The lines of a file, read 1 MiB at a time: a 100 MB download never sits in memory whole. Blank
 * lines are dropped and a leading byte-order mark removed; `\r\n` endings are accepted.
 */
export function* fileLines(path: string, onProgress?: ProgressListener): Generator<string> {
  const fd = openSync(path, "r");
  const decoder = new TextDecoder("utf-8");
  const buffer = Buffer.allocUnsafe(CHUNK);
  let carry = "";
  let total = 0;
  let first = true;
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      total += read;
      const text = carry + (read > 0 ? decoder.decode(buffer.subarray(0, read), { stream: true }) : decoder.decode());
      const parts = text.split("\n");
      // split() returns at least one element: the last, unfinished line waits for the next chunk.
      carry = read > 0 ? (parts.pop() ?? "") : "";
      for (let line of parts) {
        if (first) {
          line = line.replace(/^\uFEFF/, "");
          first = false;
        }
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line.trim() !== "") yield line;
      }
      onProgress?.(total);
      if (read === 0) break;
      // Line strings die young; without a nudge the heap grows with the file before a full collection.
      if (total % (16 * CHUNK) === 0) Bun.gc(true);
    }
  } finally {
    closeSync(fd);
  }
}

/** The same for a text already in memory (an API response, a test). */
export function* textLines(text: string): Generator<string> {
  for (const line of text.replace(/^\uFEFF/, "").split(/\r?\n/)) if (line.trim() !== "") yield line;
}

/** The first line and an iterable of all lines (the first included), reading nothing twice. */
export function peekFirst(lines: Iterable<string>): [string | undefined, Iterable<string>] {
  const iterator = lines[Symbol.iterator]();
  const first = iterator.next();
  if (first.done) return [undefined, []];
  const all = (function* () {
    yield first.value;
    for (let next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
  })();
  return [first.value, all];
}

/** SHA-256 of a file's bytes, read in chunks. */
export function fileSha256(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(CHUNK);
  try {
    for (let read = readSync(fd, buffer, 0, CHUNK, null); read > 0; read = readSync(fd, buffer, 0, CHUNK, null))
      hasher.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hasher.digest("hex");
}
