import type { Db } from "../../db/client.ts";
import { leafHash, nodeHash, type Hash } from "./merkle.ts";

/** C2SP tlog-tiles geometry: tiles of height 8, so 256 hashes of 32 bytes. */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;
export const HASH_SIZE = 32;

/** Tile index → path elements: 1234067 → x001/x234/067. */
export function tileIndexPath(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, "0"));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join("/");
}

/** The inverse of tileIndexPath on the path elements after `tile/<L>/` or `tile/entries/`; null when malformed. */
export function parseTileIndexPath(elements: readonly string[]): { index: number; width: number | null } | null {
  if (elements.length === 0) return null;
  let width: number | null = null;
  let parts = [...elements];
  if (parts.length >= 2 && parts[parts.length - 2]!.endsWith(".p")) {
    const w = parts[parts.length - 1]!;
    if (!/^[1-9][0-9]*$/.test(w) || Number(w) > 255) return null;
    width = Number(w);
    parts = [...parts.slice(0, -2), parts[parts.length - 2]!.slice(0, -2)];
  }
  let index = 0;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    const match = last ? /^([0-9]{3})$/.exec(part) : /^x([0-9]{3})$/.exec(part);
    if (!match) return null;
    index = index * 1000 + Number(match[1]);
  }
  if (!Number.isSafeInteger(index)) return null;
  return { index, width };
}

/** MTH of 2^k consecutive hashes of one tile level (k ≤ 8), reduced pairwise. */
export function reduceHashes(hashes: readonly Hash[]): Hash {
  let row = hashes;
  while (row.length > 1) {
    const next: Hash[] = [];
    for (let i = 0; i < row.length; i += 2) next.push(nodeHash(row[i]!, row[i + 1]!));
    row = next;
  }
  return row[0]!;
}

export function splitTile(bytes: Uint8Array): Hash[] {
  const hashes: Hash[] = [];
  for (let offset = 0; offset < bytes.length; offset += HASH_SIZE) hashes.push(bytes.subarray(offset, offset + HASH_SIZE));
  return hashes;
}

/** Database access for the log: full tiles, leaf entries (receipts.hash, seq = index + 1), checkpoints. */
export class TileStore {
  private readonly sql;
  /**
   * Full tiles never change, so recent ones are kept with every level inside them computed once
   * (levels[k] holds the 256 >> k subtree hashes of 2^k tile hashes): a proof then costs lookups.
   */
  private readonly cache = new Map<string, Hash[][]>();

  constructor(db: Db) {
    const sqlite = db.$client;
    this.sql = {
      tile: sqlite.prepare<{ hashes: Uint8Array }, [number, number]>("SELECT hashes FROM log_tiles WHERE level = ? AND idx = ?"),
      putTile: sqlite.prepare("INSERT INTO log_tiles (level, idx, hashes) VALUES (?, ?, ?)"),
      entries: sqlite.prepare<{ hash: Uint8Array }, [number, number]>("SELECT hash FROM receipts WHERE seq > ? AND seq <= ? ORDER BY seq"),
      tileCount: sqlite.prepare<{ n: number }, [number]>("SELECT count(*) AS n FROM log_tiles WHERE level = ?"),
    };
  }

  fullTile(level: number, index: number): Hash[] | null {
    return this.fullTileLevels(level, index)?.[0] ?? null;
  }

  fullTileLevels(level: number, index: number): Hash[][] | null {
    const key = `${level}/${index}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const row = this.sql.tile.get(level, index);
    if (!row || row.hashes.length !== TILE_WIDTH * HASH_SIZE) return null;
    const levels = [splitTile(row.hashes)];
    while (levels[levels.length - 1]!.length > 1) {
      const below = levels[levels.length - 1]!;
      levels.push(Array.from({ length: below.length / 2 }, (_, i) => nodeHash(below[2 * i]!, below[2 * i + 1]!)));
    }
    if (this.cache.size >= 64) this.cache.delete(this.cache.keys().next().value!); // ~64 × 511 hashes: a few MB
    this.cache.set(key, levels);
    return levels;
  }

  putTile(level: number, index: number, hashes: readonly Hash[]): void {
    this.sql.putTile.run(level, index, Buffer.concat(hashes.map((h) => Buffer.from(h))));
  }

  tileCount(level: number): number {
    return this.sql.tileCount.get(level)?.n ?? 0;
  }

  /** Leaf entries (32 bytes each) of log indexes [from, to). */
  entries(from: number, to: number): Buffer[] {
    return this.sql.entries.all(from, to).map((row) => Buffer.from(row.hash));
  }

  leafHashes(from: number, to: number): Hash[] {
    return this.entries(from, to).map(leafHash);
  }

  /** A full tile's own MTH: a hash of the tile level above. */
  tileRoot(level: number, index: number): Hash {
    const levels = this.fullTileLevels(level, index);
    if (!levels) throw new Error(`log tile ${level}/${index} is missing`);
    return levels[TILE_HEIGHT]![0]!;
  }
}
