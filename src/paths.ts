import { join } from "node:path";

/**
 * The only place that knows the on-disk layout. Inside the compiled binary every module
 * reports import.meta.dir === "/$bunfs/root" and the `--asset` trees sit beside it; in dev and
 * tests this file is <repo>/src/paths.ts, so the assets are one level up.
 */
export const ASSET_ROOT = Bun.isStandaloneExecutable ? import.meta.dir : join(import.meta.dir, "..");
export const MIGRATIONS_DIR = join(ASSET_ROOT, "migrations");
export const PG_MIGRATIONS_DIR = join(ASSET_ROOT, "migrations-pg");
export const PUBLIC_DIR = join(ASSET_ROOT, "public");
