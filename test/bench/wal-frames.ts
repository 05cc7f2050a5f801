// Which tables and indexes a group-commit batch writes: reads a database's write-ahead log, keeps the
// frames of its current generation (the salts of the WAL header), counts the commits among them and
// names the b-tree each frame's page belongs to (SQLite's dbstat table). A frame is one page, written
// to the WAL, fsynced, and written again by a checkpoint: frames per commit are a batch's disk work.
// `bun test/bench/wal-frames.ts FILE` while a server is under load on FILE, or on a copy of FILE and
// FILE-wal taken together (docs/design/2026-11-durable-floor.md).
// dbstat reads every page of the file, so run it between measured runs, not during one.
// Not a test: nothing here is asserted (wal-frames.test.ts checks the reading).
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

interface Frame {
  page: number;
  /** The frame ends a transaction (its header carries the database's size after the commit). */
  commits: boolean;
}

/** Each frame of the WAL's current generation, in order. */
function framesOf(wal: Buffer): Frame[] {
  if (wal.byteLength < WAL_HEADER_BYTES) return [];
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const frames: Frame[] = [];
  for (
    let at = WAL_HEADER_BYTES;
    at + FRAME_HEADER_BYTES + pageSize <= wal.byteLength;
    at += FRAME_HEADER_BYTES + pageSize
  ) {
    // A frame of an earlier generation (the WAL started over and has not been overwritten this far) ends the walk.
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    frames.push({ page: wal.readUInt32BE(at), commits: wal.readUInt32BE(at + 4) !== 0 });
  }
  return frames;
}

export interface WalFrameCounts {
  frames: number;
  commits: number;
  frames_per_commit: number | null;
  /** Frames per commit by table or index, most first. */
  per_commit_by_tree: Record<string, number | null>;
}

/** The frames of `file`'s WAL, counted by the b-tree their pages belong to now. */
export function walFrameCounts(file: string): WalFrameCounts {
  const frames = framesOf(readFileSync(`${file}-wal`));
  const db = new Database(file, { readonly: true });
  const owner = new Map(
    db
      .query<{ pageno: number; name: string }, []>("SELECT pageno, name FROM dbstat")
      .all()
      .map((row) => [row.pageno, row.name]),
  );
  db.close();

  const commits = frames.filter((frame) => frame.commits).length;
  const byTree = new Map<string, number>();
  for (const { page } of frames) {
    const name = owner.get(page) ?? "(freed since)";
    byTree.set(name, (byTree.get(name) ?? 0) + 1);
  }
  const perCommit = (count: number) => (commits === 0 ? null : Math.round((count / commits) * 100) / 100);
  return {
    frames: frames.length,
    commits,
    frames_per_commit: perCommit(frames.length),
    per_commit_by_tree: Object.fromEntries(
      [...byTree].sort((a, b) => b[1] - a[1]).map(([name, count]) => [name, perCommit(count)]),
    ),
  };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: bun test/bench/wal-frames.ts DATABASE_FILE");
  console.log(JSON.stringify(walFrameCounts(file), null, 2));
}
