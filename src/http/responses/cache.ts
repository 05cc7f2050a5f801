import { createHash } from "node:crypto";

/**
 * ETag and Cache-Control on successful GETs, and 304 Not Modified when If-None-Match names the
 * current ETag. Routes state their own Cache-Control when they know better (public documents,
 * metered answers are `no-store`); a GET that states none is per caller and must be revalidated
 * (`private, no-cache`). Nothing marked `no-store` gets an ETag: it is never reused.
 */
const DEFAULT_GET_CACHE_CONTROL = "private, no-cache";
/** Documents every caller sees the same way (OpenAPI, docs, llms.txt). */
export const PUBLIC_DOCUMENT_CACHE_CONTROL = "public, max-age=300";
/** Metered answers and error bodies: each one is its own event. */
export const NEVER_STORE = "no-store";

const isCacheableRequest = (request: Request) => request.method === "GET" || request.method === "HEAD";
const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

/** RFC 9110 weak comparison: any listed tag (or `*`) matching the current one, W/ or not. */
function ifNoneMatchHits(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => opaque(tag) === opaque(etag));
}

export function etagOf(bytes: Uint8Array | string): string {
  return `W/"${createHash("sha256").update(bytes).digest("base64url").slice(0, 22)}"`;
}

/** The response with validators added, or a 304 when the caller already holds this version. */
export async function withCacheValidators(request: Request, response: Response): Promise<Response> {
  if (!isCacheableRequest(request) || response.status !== 200) return response;
  return validated(request, response);
}

async function validated(request: Request, response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  let cacheControl = headers.get("cache-control");
  if (cacheControl === null) {
    cacheControl = DEFAULT_GET_CACHE_CONTROL;
    headers.set("Cache-Control", cacheControl);
  }
  if (/\bno-store\b/.test(cacheControl)) return response;
  let body: BodyInit | null = response.body;
  let etag = headers.get("etag");
  if (etag === null) {
    if (!response.body || /text\/event-stream/.test(headers.get("content-type") ?? "")) return response;
    const bytes = new Uint8Array(await response.arrayBuffer()) as Uint8Array<ArrayBuffer>;
    etag = etagOf(bytes);
    headers.set("ETag", etag);
    body = bytes;
  }
  if (ifNoneMatchHits(request.headers.get("if-none-match"), etag)) {
    for (const name of ["content-type", "content-length", "content-encoding"]) headers.delete(name);
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, statusText: response.statusText, headers });
}
