import { dlopen, FFIType } from "bun:ffi";

/**
 * flock(2) on an open file: an advisory lock on the file's inode, whatever name it was opened by
 * (symlinks and hard links alike), dropped by the kernel when the process dies. Node and Bun have no
 * API for it, so libc's is called through bun:ffi. Independent of the POSIX record locks SQLite
 * takes on the same file on Linux and macOS, so it never blocks SQLite itself.
 */
const LOCK_EX = 2;
const LOCK_NB = 4;

const LIBC: Partial<Record<NodeJS.Platform, string>> = { linux: "libc.so.6", darwin: "libSystem.B.dylib" };

type Flock = (fd: number, operation: number) => number;
let flock: Flock | null | undefined;

function libcFlock(): Flock | null {
  if (flock !== undefined) return flock;
  const name = LIBC[process.platform];
  try {
    const libc = name ? dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } }) : undefined;
    flock = libc ? (fd, operation) => libc.symbols.flock(fd, operation) : null;
  } catch {
    flock = null; // a libc by another name (musl): the path lock alone then stands
  }
  return flock;
}

/** "held": this process now holds the lock; "busy": another does; "unsupported": no flock here. */
export function tryExclusiveFileLock(fd: number): "held" | "busy" | "unsupported" {
  const call = libcFlock();
  if (!call) return "unsupported";
  return call(fd, LOCK_EX | LOCK_NB) === 0 ? "held" : "busy";
}
