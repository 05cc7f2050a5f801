import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walFrameCounts } from "./wal-frames.ts";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A WAL database whose log is empty once its schema is written: later commits start a new generation. */
function openFresh(schema: string[]): { db: Database; file: string } {
  dir = mkdtempSync(join(tmpdir(), "wal-frames-"));
  const file = join(dir, "test.db");
  const db = new Database(file, { create: true, strict: true });
  db.run("PRAGMA journal_mode=WAL");
  db.run("PRAGMA wal_autocheckpoint=0");
  for (const statement of schema) db.run(statement);
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  return { db, file };
}

test("commits are counted and each frame is named by the table or index its page belongs to", () => {
  const { db, file } = openFresh([
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)",
    "CREATE INDEX notes_text ON notes (text)",
    "CREATE TABLE other (id INTEGER PRIMARY KEY)",
  ]);
  const insertNote = db.prepare("INSERT INTO notes (text) VALUES (?)");
  for (let batch = 0; batch < 3; batch++) db.transaction(() => insertNote.run(`note ${batch}`))();
  db.run("INSERT INTO other DEFAULT VALUES");

  const counts = walFrameCounts(file);
  db.close();
  expect(counts.commits).toBe(4);
  // Each of the three note commits rewrote the table's one page and its index's one page.
  expect(counts.per_commit_by_tree.notes).toBe(0.75);
  expect(counts.per_commit_by_tree.notes_text).toBe(0.75);
  expect(counts.per_commit_by_tree.other).toBe(0.25);
  expect(counts.frames).toBe(7);
  expect(counts.frames_per_commit).toBe(1.75);
});

test("frames left over from before the WAL started over are not counted", () => {
  const { db, file } = openFresh(["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"]);
  const insertNote = db.prepare("INSERT INTO notes (text) VALUES (?)");
  for (let batch = 0; batch < 5; batch++) db.transaction(() => insertNote.run(`note ${batch}`))();
  expect(walFrameCounts(file).commits).toBe(5);
  // A full checkpoint, then a write: the WAL starts over from its first frame with new salts, and
  // the four later frames of the earlier generation stay in the file behind it.
  db.run("PRAGMA wal_checkpoint(RESTART)");
  insertNote.run("after the restart");
  const counts = walFrameCounts(file);
  db.close();
  expect(counts.commits).toBe(1);
  expect(counts.frames).toBe(1);
});
