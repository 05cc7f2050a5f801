import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";

/**
 * A listening server answers POST skill calls from Bun's router, wrapped in the request context's
 * `direct` steps; `app.handle` answers the same calls through Elysia's hooks (src/app.ts). Each case
 * here goes both ways, against two instances in the same state, and must come out the same.
 */
const ORIGIN = "https://pricing.example.com";
let inProcess: TestInstance;
let listening: TestInstance;
let keys: { inProcess: string; listening: string };
let scopedKeys: { inProcess: string; listening: string };

beforeAll(async () => {
  const http = { corsOrigins: [ORIGIN] };
  inProcess = await testInstance({ http });
  listening = await testInstance({ http, listen: true });
  keys = {
    inProcess: (await inProcess.accountWithKey("enterprise")).key,
    listening: (await listening.accountWithKey("enterprise")).key,
  };
  scopedKeys = {
    inProcess: (await inProcess.accountWithKey("enterprise", ["diesel-trends"])).key,
    listening: (await listening.accountWithKey("enterprise", ["diesel-trends"])).key,
  };
});
afterAll(async () => {
  await inProcess.stop();
  await listening.stop();
});

interface Case {
  name: string;
  path?: string;
  method?: string;
  key?: "full" | "scoped" | "none";
  headers?: Record<string, string>;
  body?: string;
}

const JSON_TYPE = { "content-type": "application/json" };
const ANSWER = JSON.stringify(CHICAGO_TO_DALLAS);
const CASES: Case[] = [
  { name: "an answer", headers: JSON_TYPE, body: ANSWER },
  { name: "an answer through invoke", path: "/v1/agent/invoke/rate-lookup", headers: JSON_TYPE, body: ANSWER },
  { name: "no key", key: "none", headers: JSON_TYPE, body: ANSWER },
  { name: "a key without the skill's scope", key: "scoped", headers: JSON_TYPE, body: ANSWER },
  { name: "a body that is not declared JSON", headers: { "content-type": "text/plain" }, body: ANSWER },
  { name: "a body that does not parse", headers: JSON_TYPE, body: "{origin:" },
  {
    name: "an input that fails validation",
    headers: JSON_TYPE,
    body: JSON.stringify({ origin: "Chicago, IL", equipment: "BOAT" }),
  },
  { name: "a declared length past the cap", headers: JSON_TYPE, body: `{"pad":"${"x".repeat(70_000)}"}` },
  { name: "an unknown skill through invoke", path: "/v1/agent/invoke/no-such-skill", headers: JSON_TYPE, body: ANSWER },
  { name: "the caller's request id", headers: { ...JSON_TYPE, "x-request-id": "trace-42.a" }, body: ANSWER },
  { name: "a request id that is not kept", headers: { ...JSON_TYPE, "x-request-id": "has spaces" }, body: ANSWER },
  { name: "an allowed browser origin", headers: { ...JSON_TYPE, origin: ORIGIN }, body: ANSWER },
  { name: "gzip asked for", headers: { ...JSON_TYPE, "accept-encoding": "gzip" }, body: ANSWER },
  { name: "another method on the path falls through to Elysia", method: "GET" },
  {
    name: "a preflight on the path",
    method: "OPTIONS",
    headers: { origin: ORIGIN, "access-control-request-method": "POST" },
  },
];

/** What must agree: the status, the header names and the values that are not per call, the body's shape. */
async function outcome(instance: TestInstance, key: string | undefined, scopedKey: string, c: Case) {
  const headers = new Headers({ "accept-encoding": "identity", ...c.headers });
  // Over the wire the body's length is declared; a Request made in-process declares it only if told.
  if (c.body !== undefined) headers.set("content-length", String(Buffer.byteLength(c.body)));
  if (c.key !== "none") headers.set("authorization", `Bearer ${c.key === "scoped" ? scopedKey : key}`);
  const method = c.method ?? "POST";
  const request = new Request(`${instance.url}${c.path ?? "/v1/rates/lookup"}`, {
    method,
    headers,
    body: method === "POST" ? c.body : undefined,
  });
  const response =
    instance === listening ? await fetch(request, { decompress: false }) : await instance.app.handle(request);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const encoding = response.headers.get("content-encoding");
  const text = new TextDecoder().decode(encoding === "gzip" ? gunzipSync(bytes) : bytes);
  const body = text === "" ? null : (JSON.parse(text) as Record<string, unknown>);
  const perCall = new Set(["date", "content-length", "x-ratelimit-reset", "x-request-id"]);
  const requestId = response.headers.get("x-request-id") ?? "";
  return {
    status: response.status,
    headers: Object.fromEntries(Object.entries(response.headers.toJSON()).filter(([name]) => !perCall.has(name))),
    requestId: requestId.startsWith("req_") ? "req_(fresh)" : requestId,
    error: body?.error ?? null,
    details: body?.details ?? null,
    fields: body ? Object.keys(body).sort() : null,
    bodyRequestId:
      body?.request_id === undefined ? "(none)" : body.request_id === requestId ? "(same)" : body.request_id,
  };
}

describe("POST skill routes on Bun's router", () => {
  for (const c of CASES) {
    test(`${c.name}: the same answer as through Elysia`, async () => {
      const viaElysia = await outcome(inProcess, keys.inProcess, scopedKeys.inProcess, c);
      const viaBun = await outcome(listening, keys.listening, scopedKeys.listening, c);
      expect(viaBun).toEqual(viaElysia);
    });
  }

  test("the cases cover answers and refusals of every kind listed", async () => {
    const statuses = new Set<number>();
    for (const c of CASES) statuses.add((await outcome(listening, keys.listening, scopedKeys.listening, c)).status);
    expect([...statuses].sort()).toEqual([200, 204, 400, 401, 403, 404, 405, 413, 415]);
  });

  test("an Idempotency-Key replays the first answer on the second call", async () => {
    const call = (instance: TestInstance, key: string) =>
      instance
        .call("/v1/rates/lookup", {
          method: "POST",
          key,
          json: CHICAGO_TO_DALLAS,
          headers: { "idempotency-key": "bun-router-1" },
        })
        .then((r) => r.json());
    const first = (await call(listening, keys.listening)) as { receipt_id: string };
    const second = (await call(listening, keys.listening)) as { receipt_id: string };
    expect(second.receipt_id).toBe(first.receipt_id);
  });

  test("the app hands Bun's router every POST skill route and the invoke route, and nothing else", () => {
    const routes =
      (listening.app.config.serve as { routes?: Record<string, Record<string, unknown>> } | undefined)?.routes ?? {};
    const posts = listening.runtime.skills
      .filter((skill) => skill.rest.method === "POST")
      .map((skill) => skill.rest.path);
    expect(Object.keys(routes).sort()).toEqual([...posts, "/v1/agent/invoke/:skill"].sort());
    for (const methods of Object.values(routes)) expect(Object.keys(methods)).toEqual(["POST"]);
  });
});
