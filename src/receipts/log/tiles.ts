import type { ReceiptRows } from "../rows/types.ts";
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
  const [partial, w] = parts.length >= 2 ? parts.slice(-2) : [];
  if (partial?.endsWith(".p") && w !== undefined) {
    if (!/^[1-9][0-9]*$/.test(w) || Number(w) > 255) return null;
    width = Number(w);
    parts = [...parts.slice(0, -2), partial.slice(0, -2)];
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
  while (row.length > 1) row = levelAbove(row);
  return hashAt(row, 0);
}

/** The level above `row`: the node hash of each pair. */
function levelAbove(row: readonly Hash[]): Hash[] {
  const above: Hash[] = [];
  for (let i = 0; i < row.length; i += 2) above.push(nodeHash(hashAt(row, i), hashAt(row, i + 1)));
  return above;
}

function hashAt(row: readonly Hash[], index: number): Hash {
  const hash = row[index];
  if (!hash) throw new RangeError(`no hash ${index} in a tile level of ${row.length} (it must hold 2^k)`);
  return hash;
}

export function splitTile(bytes: Uint8Array): Hash[] {
  const hashes: Hash[] = [];
  for (let offset = 0; offset < bytes.length; offset += HASH_SIZE)
    hashes.push(bytes.subarray(offset, offset + HASH_SIZE));
  return hashes;
}

/** Thrown by a tile read whose row is still on its way: `TileStore.reading` loads it and runs the work again. */
class TileNotLoaded extends Error {
  constructor(readonly loading: Promise<void>) {
    super("a log tile is being loaded");
  }
}

/** Database access for the log: full tiles and leaf entries (receipts.hash, seq = index + 1). */
export class TileStore {
  /**
   * Full tiles never change, so recent ones are kept with every level inside them computed once
   * (levels[k] holds the 256 >> k subtree hashes of 2^k tile hashes): a proof then costs lookups.
   */
  private readonly cache = new Map<string, Hash[][]>();
  /** Tiles loaded for the work `reading` runs now; kept whole however many it needs. */
  private loaded: Map<string, Hash[][]> | null = null;

  constructor(private readonly rows: ReceiptRows) {}

  /**
   * Run synchronous work that reads tiles (proofs, loading the head): each tile it misses (not kept
   * in memory) is loaded and the work runs again, until it finds every tile it needs (a proof needs
   * a few; a recent one is usually kept).
   */
  async reading<T>(work: () => T): Promise<T> {
    const loaded = new Map<string, Hash[][]>();
    for (;;) {
      let missing: TileNotLoaded;
      this.loaded = loaded;
      try {
        return work();
      } catch (error) {
        if (!(error instanceof TileNotLoaded)) throw error;
        missing = error;
      } finally {
        this.loaded = null;
      }
      await missing.loading;
    }
  }

  fullTile(level: number, index: number): Hash[] | null {
    return this.fullTileLevels(level, index)?.[0] ?? null;
  }

  fullTileLevels(level: number, index: number): Hash[][] | null {
    const key = `${level}/${index}`;
    const cached = this.cache.get(key) ?? this.loaded?.get(key);
    if (cached) return cached;
    const loaded = this.loaded;
    if (!loaded) throw new Error("log tiles are read asynchronously: read them inside TileStore.reading");
    throw new TileNotLoaded(
      this.rows.tile(level, index).then((bytes) => {
        const levels = bytes ? this.remember(key, bytes) : null;
        if (levels) loaded.set(key, levels);
        else throw new Error(`log tile ${key} is not stored`);
      }),
    );
  }

  private remember(key: string, bytes: Uint8Array): Hash[][] | null {
    if (bytes.length !== TILE_WIDTH * HASH_SIZE) return null;
    let row = splitTile(bytes);
    const levels = [row];
    while (row.length > 1) {
      row = levelAbove(row);
      levels.push(row);
    }
    const oldest = this.cache.keys().next();
    if (this.cache.size >= 64 && !oldest.done) this.cache.delete(oldest.value); // ~64 × 511 hashes: a few MB
    this.cache.set(key, levels);
    return levels;
  }

  /** A full tile's own MTH: a hash of the tile level above. */
  tileRoot(level: number, index: number): Hash {
    const levels = this.fullTileLevels(level, index);
    if (!levels) throw new Error(`log tile ${level}/${index} is missing`);
    const root = levels[TILE_HEIGHT]?.[0];
    if (!root) throw new Error(`log tile ${level}/${index} has no level ${TILE_HEIGHT}`);
    return root;
  }
}

/** The leaf hashes of these entries. */
export const leafHashesOf = (entries: readonly Uint8Array[]): Hash[] => entries.map(leafHash);
