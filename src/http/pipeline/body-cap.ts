import { Elysia } from "elysia";
import { ClientGoneError, isClientGone } from "../../client-gone.ts";
import { errors } from "../../errors.ts";

/** Every request body, on every route and transport, chunked or not, but for the bid-sheet uploads below. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * A bid sheet of 10,000 lanes: a CSV row of a lane with an analyst's own columns runs to 100–250
 * bytes, a JSON lane to about 150, so 4 MiB holds the largest sheet with room to spare.
 */
export const MAX_SHEET_BODY_BYTES = 4 * 1024 * 1024;

/** The routes that take a bid sheet, and so the larger cap. */
const SHEET_UPLOADS = new Set(["/v1/rates/batch", "/dashboard/sheets"]);

/** The body cap of the route at `pathname`. */
export const bodyCapFor = (pathname: string): number =>
  SHEET_UPLOADS.has(pathname) ? MAX_SHEET_BODY_BYTES : MAX_BODY_BYTES;

/**
 * The body's bytes, refused with 413 as soon as more than `limit` arrive: a declared
 * Content-Length is checked before reading, and a chunked body is cut off at the cap instead of
 * being buffered whole, so a large upload costs at most `limit` bytes of memory.
 */
export async function readCappedBody(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (Number(declared ?? 0) > limit) throw errors.payloadTooLarge(limit);
  // A declared length within the cap is all the server reads of this body: read it whole, natively,
  // without a stream reader and a promise per chunk.
  if (declared !== null && /^\d+$/.test(declared)) {
    const bytes = await readDeclared(request);
    if (bytes.byteLength > limit) throw errors.payloadTooLarge(limit); // HTTP framing makes it the declared length; a Request made in-process need not
    return bytes;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const read = async () => {
    try {
      return await reader.read();
    } catch (error) {
      if (isClientGone(error, request.signal)) throw new ClientGoneError();
      throw error;
    }
  };
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (let chunk = await read(); !chunk.done; chunk = await read()) {
    received += chunk.value.byteLength;
    if (received > limit) {
      void reader.cancel().catch(() => {});
      throw errors.payloadTooLarge(limit);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}

async function readDeclared(request: Request): Promise<Uint8Array> {
  try {
    return new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    if (isClientGone(error, request.signal)) throw new ClientGoneError();
    throw error;
  }
}

/**
 * A form body as an object without a prototype, so only fields the client sent are its own
 * (a field named `constructor` or `__proto__` is data, never a reach into Object.prototype).
 * A repeated field (several ticked checkboxes) becomes an array.
 */
export function formFields(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

/**
 * For a plugin whose routes let Elysia parse the body (the dashboard's forms): the same cap.
 * Local to that plugin, because a global parse hook would also run before, and drain, the
 * bodies of routes that read their own with readCappedBody (`parse: "none"`: skills, MCP).
 */
export function cappedBodyParser() {
  return new Elysia({ name: "capped-body-parser" }).onParse({ as: "scoped" }, async ({ request, contentType }) => {
    const bytes = await readCappedBody(request, bodyCapFor(new URL(request.url).pathname));
    // Elysia's contentType stops at the first `;`: the multipart boundary is read from the header itself.
    if (/^multipart\/form-data\b/i.test(contentType))
      return multipartFields(bytes, request.headers.get("content-type") ?? contentType);
    const text = new TextDecoder().decode(bytes);
    if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) return formFields(text);
    if (/^application\/(.+\+)?json\b/i.test(contentType)) {
      if (text === "") return null;
      try {
        return JSON.parse(text);
      } catch {
        throw errors.invalidRequest([{ field: "(body)", problem: "is not valid JSON" }]);
      }
    }
    return text;
  });
}

/** A multipart form (a file upload) as fields without a prototype: text fields as strings, files as File. */
async function multipartFields(bytes: Uint8Array, contentType: string): Promise<Record<string, string | File>> {
  let form: FormData;
  try {
    form = await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
      headers: { "content-type": contentType },
    }).formData();
  } catch {
    throw errors.invalidRequest([{ field: "(body)", problem: "is not a valid multipart form" }]);
  }
  const fields: Record<string, string | File> = Object.create(null);
  form.forEach((value, name) => {
    fields[name] ??= value;
  });
  return fields;
}
