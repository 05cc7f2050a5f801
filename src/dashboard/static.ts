import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { Elysia } from "elysia";
import { PUBLIC_DIR } from "../paths.ts";
import { sha256Hex } from "./secrets.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
};

interface Asset {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** First 12 hex of the SHA-256: the `?v=` in asset URLs and the ETag. */
  version: string;
}

let assets: Map<string, Asset> | undefined;

/**
 * public/ is read once, on first use (from the repo in dev, from the embedded `--asset public`
 * tree in the binary). Only files present at start are served, so no path from the URL ever
 * reaches the file system.
 */
function loadAssets(): Map<string, Asset> {
  if (assets) return assets;
  assets = new Map();
  for (const name of readdirSync(PUBLIC_DIR)) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (!contentType) continue;
    const bytes = Uint8Array.from(readFileSync(join(PUBLIC_DIR, name)));
    assets.set(name, { bytes, contentType, version: sha256Hex(bytes).slice(0, 12) });
  }
  return assets;
}

/** `/public/<name>?v=<content hash>`: a changed file gets a new URL, so browsers may cache each URL forever. */
export function assetUrl(name: string): string {
  const asset = loadAssets().get(name);
  if (!asset) throw new Error(`public/${name} does not exist`);
  return `/public/${name}?v=${asset.version}`;
}

export function staticRoutes() {
  return new Elysia({ name: "dashboard-static" }).get("/public/:name", ({ params, query, request }) => {
    const asset = loadAssets().get(params.name);
    if (!asset)
      return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
    const etag = `"${asset.version}"`;
    const cacheControl = query.v === asset.version ? "public, max-age=31536000, immutable" : "public, no-cache";
    const headers = {
      "content-type": asset.contentType,
      etag,
      "cache-control": cacheControl,
      "x-content-type-options": "nosniff",
    };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return new Response(asset.bytes, { headers });
  });
}
