import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { MaybePromise } from "../db/maybe-async.ts";
import { withHeaders } from "./with-headers.ts";

/**
 * gzip or brotli for responses over COMPRESS_ABOVE_BYTES when the client accepts one (brotli
 * preferred). Streams (Server-Sent Events), already-encoded bodies and bodiless statuses pass as
 * they are. Bodies of public, versioned responses (the docs bundle, the OpenAPI document) are
 * compressed once per ETag and kept, since they are the same for every caller.
 */
const COMPRESS_ABOVE_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|[\w.+-]+\+json|javascript|xml)|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)/i;
/**
 * How hard to compress. A body compressed for one response (an answer, ~2.6 KB) is on the answered
 * path: brotli quality 5 took ≈ 185 µs of CPU there and quality 1 ≈ 35 µs for 1,353 instead of
 * 1,165 bytes (gzip level 1 ≈ 35 µs, level 6 ≈ 60 µs), at 1,000 answers/s the difference between an
 * idle and a busy event loop (docs/performance.md). A kept body is compressed once per version.
 */
const EFFORT = {
  perResponse: { brotliQuality: 1, gzipLevel: 1 },
  kept: { brotliQuality: 5, gzipLevel: 6 },
} as const;
type Effort = (typeof EFFORT)[keyof typeof EFFORT];
const KEPT_VARIANTS_MAX = 32;

type Encoding = "br" | "gzip";

/** The best encoding the Accept-Encoding header allows (q=0 refuses), or undefined. */
function chooseEncoding(acceptEncoding: string | null): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const weight = (name: Encoding) => weights.get(name) ?? (weights.has("*") ? weights.get("*")! : 0);
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return undefined;
}

function encode(bytes: Uint8Array, encoding: Encoding, effort: Effort): Uint8Array {
  return encoding === "br"
    ? brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: effort.brotliQuality, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength } })
    : gzipSync(bytes, { level: effort.gzipLevel });
}

const keptVariants = new Map<string, Uint8Array>();

function compressedBody(bytes: Uint8Array, encoding: Encoding, keepAs: string | undefined): Uint8Array {
  if (!keepAs) return encode(bytes, encoding, EFFORT.perResponse);
  const key = `${encoding} ${keepAs}`;
  let body = keptVariants.get(key);
  if (!body) {
    body = encode(bytes, encoding, EFFORT.kept);
    if (keptVariants.size >= KEPT_VARIANTS_MAX) keptVariants.delete(keptVariants.keys().next().value!);
    keptVariants.set(key, body);
  }
  return body;
}

/**
 * The same response, compressed when that is worth it and the client accepts it. Synchronous unless
 * the body has to be read to compress it.
 */
export function compressResponse(request: Request, response: Response): MaybePromise<Response> {
  if (!response.body || request.method === "HEAD" || response.status === 204 || response.status === 304) return response;
  const contentType = response.headers.get("content-type") ?? "";
  if (response.headers.has("content-encoding") || !COMPRESSIBLE.test(contentType)) return response;
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared <= COMPRESS_ABOVE_BYTES) return response;
  const encoding = chooseEncoding(request.headers.get("accept-encoding"));
  // The body is read only to compress it: a caller that accepts no encoding gets it untouched.
  if (!encoding) return withHeaders(response, (headers) => headers.append("Vary", "Accept-Encoding"));
  return compressed(response, encoding);
}

async function compressed(response: Response, encoding: Encoding): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.append("Vary", "Accept-Encoding");
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength <= COMPRESS_ABOVE_BYTES) {
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
  }
  const etag = headers.get("etag");
  const isPublic = /\bpublic\b/.test(headers.get("cache-control") ?? "");
  const body = compressedBody(bytes, encoding, etag && isPublic ? etag : undefined);
  headers.set("Content-Encoding", encoding);
  headers.delete("Content-Length");
  return new Response(body as Uint8Array<ArrayBuffer>, { status: response.status, statusText: response.statusText, headers });
}
