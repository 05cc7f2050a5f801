import { Database } from "bun:sqlite";
import { closeSync, existsSync, openSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ConfigError } from "../errors.ts";
import { requireDatabaseFolder } from "../db/open.ts";
import { tryExclusiveFileLock } from "./file-lock.ts";

/**
 * One writer per database: `waybill serve` holds an exclusive lock on `<db>.lock` for its whole
 * life, so a second server on the same file refuses to start instead of keeping a second set of
 * in-memory month and minute counters (which would double every quota).
 *
 * The lock is SQLite's own (POSIX advisory locks, held by the process, dropped by the kernel when it
 * dies, even on kill -9) on a separate small file in exclusive locking mode, not on the database:
 * an exclusive lock on the database would shut out the CLI, which must keep working against a live
 * server (WAL lets it read and write beside the server). The CLI does not take this lock.
 *
 * The same file reached by another name must not get past it: a second server on a symlink or a
 * hard link would keep its own `-wal` file beside the first server's and break the database. So
 * the lock file is named after the database's resolved path (symlinks), and the database file
 * itself, that is its inode, is flock()ed (hard links too; src/ops/file-lock.ts).
 */
export interface InstanceLock {
  readonly path: string;
  release(): void;
}

export function lockFileOf(dbFile: string): string {
  return `${resolvedPath(dbFile)}.lock`;
}

/** The path with every symlink resolved, also for a database file not created yet. */
export function resolvedPath(file: string): string {
  const absolute = resolve(file);
  if (existsSync(absolute)) return realpathSync(absolute);
  return join(realpathSync(dirname(absolute)), basename(absolute));
}

const heldElsewhere = (dbFile: string, path: string) =>
  new ConfigError(`another waybill server is already using ${resolve(dbFile)} (it holds ${path}); stop it first.`);

/** An exclusive flock on the database file's inode, or a refusal when another process holds one. */
function lockDatabaseInode(dbPath: string, lockPath: string): () => void {
  const fd = openSync(dbPath, "a"); // created empty when new: SQLite takes an empty file as a new database
  const held = tryExclusiveFileLock(fd);
  if (held === "busy") {
    closeSync(fd);
    throw heldElsewhere(dbPath, lockPath);
  }
  return () => closeSync(fd);
}

export function acquireInstanceLock(dbFile: string): InstanceLock {
  const dbPath = requireDatabaseFolder(dbFile);
  const path = lockFileOf(dbPath);
  let lock: Database;
  try {
    lock = new Database(path, { create: true });
  } catch (error) {
    throw new ConfigError(
      `cannot open database ${dbPath}: its lock file ${path} cannot be created (${(error as Error).message}).`,
    );
  }
  try {
    lock.run("PRAGMA busy_timeout = 0");
    lock.run("PRAGMA journal_mode = OFF");
    // In exclusive locking mode the lock taken by the first write is kept until the connection closes.
    lock.run("PRAGMA locking_mode = EXCLUSIVE");
    lock.run("BEGIN EXCLUSIVE");
    lock.run("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, started_at TEXT NOT NULL)");
    lock.run("DELETE FROM holder");
    lock.run("INSERT INTO holder (pid, started_at) VALUES (?, ?)", [process.pid, new Date().toISOString()]);
    lock.run("COMMIT");
  } catch (error) {
    lock.close();
    const code = (error as { code?: string }).code ?? "";
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) throw heldElsewhere(dbFile, path);
    throw new ConfigError(`cannot lock ${path}: ${(error as Error).message}.`);
  }
  let releaseInode: () => void;
  try {
    releaseInode = lockDatabaseInode(dbPath, path);
  } catch (error) {
    lock.close();
    throw error;
  }
  return {
    path,
    release: () => {
      releaseInode();
      lock.close();
    },
  };
}
