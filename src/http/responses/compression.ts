import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { withHeaders } from "./with-headers.ts";

/**
 * gzip or brotli for responses over COMPRESS_ABOVE_BYTES when the client accepts one. Streams
 * (Server-Sent Events), already-encoded bodies and bodiless statuses pass as they are. Bodies of
 * public, versioned responses (the docs bundle, the OpenAPI document) are compressed once per ETag
 * and kept, since they are the same for every caller: those prefer brotli (smaller).
 *
 * A body compressed for one response (an answer, ~2.6 KB) is on the answered path, so it prefers
 * the cheaper encoding: at 1,000 answers/s, brotli quality 5 on every answer was 30 % of the
 * server's CPU (docs/performance.md). In the running server, node:zlib's brotli at quality 1 still
 * took ≈ 100 µs per answer (a stream object and a 64 KB buffer per call), while Bun's native
 * gzip at level 1 takes ≈ 23 µs for 1,619 instead of 1,165 bytes.
 */
const COMPRESS_ABOVE_BYTES = 1024;
const COMPRESSIBLE =
  /^(application\/(json|[\w.+-]+\+json|javascript|xml)|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)/i;
const KEPT_BROTLI_QUALITY = 5;
const PER_RESPONSE_BROTLI_QUALITY = 1;
const PER_RESPONSE_GZIP_LEVEL = 1;
const KEPT_VARIANTS_MAX = 32;

type Encoding = "br" | "gzip";
const KEPT_PREFERENCE: readonly Encoding[] = ["br", "gzip"];
const PER_RESPONSE_PREFERENCE: readonly Encoding[] = ["gzip", "br"];

/** The first encoding of `preference` the Accept-Encoding header allows (q=0 refuses), or undefined. */
function chooseEncoding(acceptEncoding: string | null, preference: readonly Encoding[]): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get("*") ?? 0;
  return preference.find((encoding) => weight(encoding) > 0);
}

function encodeOnce(bytes: Uint8Array<ArrayBuffer>, encoding: Encoding): Uint8Array {
  return encoding === "br"
    ? brotliCompressSync(bytes, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: PER_RESPONSE_BROTLI_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        },
      })
    : Bun.gzipSync(bytes, { level: PER_RESPONSE_GZIP_LEVEL });
}

function encodeToKeep(bytes: Uint8Array, encoding: Encoding): Uint8Array {
  return encoding === "br"
    ? brotliCompressSync(bytes, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: KEPT_BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength },
      })
    : gzipSync(bytes);
}

/** The key a public, versioned body is kept under (its ETag), or undefined when it is per response. */
function keptAs(headers: Headers): string | undefined {
  const etag = headers.get("etag");
  return etag && /\bpublic\b/.test(headers.get("cache-control") ?? "") ? etag : undefined;
}

const keptVariants = new Map<string, Uint8Array>();

function compressedBody(bytes: Uint8Array<ArrayBuffer>, encoding: Encoding, keepAs: string | undefined): Uint8Array {
  if (!keepAs) return encodeOnce(bytes, encoding);
  const key = `${encoding} ${keepAs}`;
  let body = keptVariants.get(key);
  if (!body) {
    body = encodeToKeep(bytes, encoding);
    const oldest = keptVariants.keys().next();
    if (keptVariants.size >= KEPT_VARIANTS_MAX && !oldest.done) keptVariants.delete(oldest.value);
    keptVariants.set(key, body);
  }
  return body;
}

/**
 * The same response, compressed when that is worth it and the client accepts it.
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  if (!response.body || request.method === "HEAD" || response.status === 204 || response.status === 304)
    return response;
  const contentType = response.headers.get("content-type") ?? "";
  if (response.headers.has("content-encoding") || !COMPRESSIBLE.test(contentType)) return response;
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared <= COMPRESS_ABOVE_BYTES) return response;
  const keepAs = keptAs(response.headers);
  const encoding = chooseEncoding(
    request.headers.get("accept-encoding"),
    keepAs ? KEPT_PREFERENCE : PER_RESPONSE_PREFERENCE,
  );
  // The body is read only to compress it: a caller that accepts no encoding gets it untouched.
  if (!encoding) return withHeaders(response, (headers) => headers.append("Vary", "Accept-Encoding"));
  return compressed(response, encoding, keepAs);
}

async function compressed(response: Response, encoding: Encoding, keepAs: string | undefined): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.append("Vary", "Accept-Encoding");
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength <= COMPRESS_ABOVE_BYTES) {
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
  }
  const body = compressedBody(bytes, encoding, keepAs);
  headers.set("Content-Encoding", encoding);
  headers.delete("Content-Length");
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
