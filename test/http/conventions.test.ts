import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync } from "node:zlib";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

const APP_ORIGIN = "https://app.example.com";
let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ http: { corsOrigins: [APP_ORIGIN] }, listen: true });
});
afterAll(() => server.stop());

/** Bun's fetch decompresses by itself; these tests look at the bytes on the wire. */
const raw = (path: string, init: RequestInit = {}) =>
  fetch(server.url + path, { ...init, decompress: false } as RequestInit);

describe("X-Request-Id", () => {
  test("a well-formed incoming id is kept; anything else is replaced", async () => {
    const kept = await server.call("/healthz", { headers: { "x-request-id": "trace-4bf92f3577b34da6" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-4bf92f3577b34da6");
    const { key } = await server.accountWithKey("explorer");
    const refused = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: {},
      headers: { "x-request-id": "client:42" },
    });
    expect(refused.headers.get("x-request-id")).toBe("client:42");
    expect(((await refused.json()) as { request_id: string }).request_id).toBe("client:42");
    for (const bad of ["has space", "x".repeat(129), "-leading-dash"]) {
      const replaced = await server.call("/healthz", { headers: { "x-request-id": bad } });
      expect(replaced.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });
});

describe("methods", () => {
  test("a known path under another method is 405 with Allow, named like every error", async () => {
    const { key, authObjId } = await server.accountWithKey("explorer");
    const response = await server.call("/v1/rates/lookup", { key });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
    expect(await response.json()).toMatchObject({ error: "METHOD_NOT_ALLOWED", auth_obj_id: authObjId });
    expect((await server.call("/v1/no-such-thing", { key })).status).toBe(404);
  });

  test("OPTIONS without CORS answers 204 with Allow", async () => {
    const response = await server.call("/v1/usage", { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toContain("GET");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CORS from the operator's allow-list", () => {
  test("a preflight from a listed origin is answered; from any other it is not", async () => {
    const preflight = (origin: string) =>
      server.call("/v1/rates/lookup", {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, idempotency-key",
        },
      });
    const allowed = await preflight(APP_ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(allowed.headers.get("access-control-allow-methods")).toContain("POST");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
    expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
    const other = await preflight("https://evil.example.net");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("answers to a listed origin expose the rate-limit and request-id headers", async () => {
    const { key } = await server.accountWithKey("explorer");
    const response = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: CHICAGO_TO_DALLAS,
      headers: { origin: APP_ORIGIN },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN);
    expect(response.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    expect(response.headers.get("vary")).toContain("Origin");
  });

  test("the dashboard is never cross-origin", async () => {
    const response = await server.call("/dashboard", { headers: { origin: APP_ORIGIN }, redirect: "manual" });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("compression", () => {
  test("large bodies go out as brotli or gzip, as the client asks; small ones as they are", async () => {
    const brotli = await raw("/openapi.json", { headers: { "accept-encoding": "gzip, br" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    const gzip = await raw("/openapi.json", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const decoded = JSON.parse(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gzip.arrayBuffer()))));
    expect(decoded.openapi).toStartWith("3.1");
    const identity = await raw("/openapi.json", { headers: { "accept-encoding": "identity" } });
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(identity.headers.get("vary")).toContain("Accept-Encoding");
    const small = await raw("/healthz", { headers: { "accept-encoding": "br" } });
    expect(small.headers.get("content-encoding")).toBeNull();
  });

  test("an answer, compressed for its one response, decodes to the answer a client without compression gets", async () => {
    const { key } = await server.accountWithKey("professional");
    const ask = (encoding: string) =>
      raw("/v1/rates/lookup", {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "accept-encoding": encoding },
        body: JSON.stringify(CHICAGO_TO_DALLAS),
      });
    const plain = (await (await ask("identity")).json()) as { total_cost: number };
    expect(plain.total_cost).toBeGreaterThan(0);
    const brotli = (bytes: Uint8Array<ArrayBuffer>) => brotliDecompressSync(bytes);
    const gzip = (bytes: Uint8Array<ArrayBuffer>) => Bun.gunzipSync(bytes);
    // An answer is compressed for its one response: the cheaper gzip when the client takes both.
    for (const [accepted, encoding, decode] of [
      ["br", "br", brotli],
      ["gzip", "gzip", gzip],
      ["gzip, deflate, br", "gzip", gzip],
    ] as const) {
      const response = await ask(accepted);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-encoding")).toBe(encoding);
      const answer = JSON.parse(new TextDecoder().decode(decode(new Uint8Array(await response.arrayBuffer()))));
      expect(answer.total_cost).toBe(plain.total_cost);
    }
  });
});

describe("ETag and Cache-Control", () => {
  test("public documents and per-key reads revalidate to 304; metered answers are never stored", async () => {
    const first = await server.call("/openapi.json");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(first.headers.get("cache-control")).toContain("public");
    const again = await server.call("/openapi.json", { headers: { "if-none-match": defined(etag, "etag") } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);

    const { key } = await server.accountWithKey("explorer");
    const usage = await server.call("/v1/usage", { key });
    expect(usage.headers.get("cache-control")).toBe("private, no-cache");
    const usageAgain = await server.call("/v1/usage", {
      key,
      headers: { "if-none-match": defined(usage.headers.get("etag"), 'usage.headers.get("etag")') },
    });
    expect(usageAgain.status).toBe(304);

    const trends = await server.call("/v1/diesel/trends?weeks=4", { key });
    expect(trends.status).toBe(200);
    expect(trends.headers.get("cache-control")).toBe("no-store");
    expect(trends.headers.get("etag")).toBeNull();
  });
});

describe("auth_obj_id on every answer after authentication", () => {
  test("413 before any route and 404 for an unknown skill name the key grant", async () => {
    const { key, authObjId } = await server.accountWithKey("explorer");
    const tooLarge = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ origin: "x".repeat(70 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: "PAYLOAD_TOO_LARGE", auth_obj_id: authObjId });
    const unknown = await server.call("/v1/agent/invoke/no-such-skill", { method: "POST", key, json: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: "NOT_FOUND", auth_obj_id: authObjId });
    const unknownRoute = await server.call("/v1/nothing-here", { key });
    expect(await unknownRoute.json()).toMatchObject({ error: "NOT_FOUND", auth_obj_id: authObjId });
  });
});
