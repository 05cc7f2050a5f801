/**
 * Properties a hostile-traffic review found holding, kept as tests: no input makes the server
 * answer 5xx, and a key is never stored or logged in full after it was shown once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { configureLog } from "../../src/ops/log.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
let key: string;
const logLines: string[] = [];
beforeAll(async () => {
  server = await testInstance({ listen: true });
  ({ key } = await server.accountWithKey("enterprise"));
  configureLog({ format: "json", level: "debug", write: (line) => logLines.push(line) });
});
afterAll(async () => {
  configureLog({ format: "text", level: "warn", write: (line) => console.error(line) });
  await server.stop();
});

const PATHS = [
  "/v1/rates/lookup",
  "/v1/fuel/surcharge",
  "/v1/diesel/trends",
  "/v1/lanes/compare",
  "/v1/agent/invoke/rate-lookup",
  "/v1/agent/invoke/nope",
  "/v1/skills",
  "/v1/usage",
  "/mcp",
  "/signin",
  "/signout",
  "/dashboard/keys",
  "/dashboard/password",
  "/password/abc",
  "/setup/abc",
  "/readyz",
];
const PROTOTYPE_NAMES = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"];

const bodyArbitrary = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .dictionary(
      fc.oneof(
        fc.constantFrom(...PROTOTYPE_NAMES, "origin", "destination", "equipment", "as_of", "miles"),
        fc.string(),
      ),
      fc.jsonValue(),
    )
    .map((value) => JSON.stringify({ ...CHICAGO_TO_DALLAS, ...value })),
  fc.string(),
  fc.constant(""),
);
const headerArbitrary = fc.record(
  {
    "content-type": fc.constantFrom(
      "application/json",
      "application/x-www-form-urlencoded",
      "text/plain",
      "application/json; charset=\u00ff",
      "multipart/form-data; boundary=",
    ),
    authorization: fc.oneof(
      fc.constant(`Bearer ${"KEY"}`),
      fc.string().map((s) => `Bearer ${s.replace(/[\r\n\0]/g, "")}`),
      fc.constant("Basic Zm9vOmJhcg=="),
    ),
    cookie: fc.oneof(
      fc.constant("__Host-waybill_session=%E0%A4%A"),
      fc.string().map((s) => `waybill_session=${encodeURIComponent(s)}`),
    ),
    origin: fc.constantFrom("null", "http://evil.example", "::::"),
    accept: fc.constantFrom("application/json, text/event-stream", "*/*"),
  },
  { requiredKeys: [] },
);

describe("hostile requests", () => {
  test("no combination of path, method, body and headers gets a 5xx; every JSON error carries a request id", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.constantFrom("GET", "POST", "PUT", "DELETE"),
        bodyArbitrary,
        headerArbitrary,
        fc.string(),
        async (path, method, body, headers, query) => {
          const realHeaders = {
            ...headers,
            ...(headers.authorization === "Bearer KEY" ? { authorization: `Bearer ${key}` } : {}),
          };
          const response = await fetch(`${server.url}${path}?${encodeURIComponent(query)}=1`, {
            method,
            headers: realHeaders,
            body: method === "GET" ? undefined : body,
            redirect: "manual",
          });
          expect({ path, method, status: response.status }).toEqual({ path, method, status: expect.any(Number) });
          expect(response.status).toBeLessThan(500);
          if (
            (response.headers.get("content-type") ?? "").startsWith("application/json") &&
            response.status >= 400 &&
            path !== "/mcp"
          ) {
            const answer = (await response.json()) as { request_id?: string };
            expect(answer.request_id).toBe(
              defined(response.headers.get("x-request-id"), 'response.headers.get("x-request-id")'),
            );
          } else {
            await response.arrayBuffer();
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe("a key is shown once, then never again", () => {
  test("no table in the database and no log line holds the full key after calls with it", async () => {
    for (let i = 0; i < 3; i++)
      expect((await server.call("/v1/rates/lookup", { method: "POST", key, json: CHICAGO_TO_DALLAS })).status).toBe(
        200,
      );
    await server.call("/v1/rates/lookup", { method: "POST", key, json: { origin: 1 } });
    await server.runtime.usage.flush();
    const sqlite = server.db.$client;
    const tables = sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
    for (const { name } of tables) {
      const rows = sqlite.query<Record<string, unknown>, []>(`SELECT * FROM "${name}"`).all();
      expect({ table: name, leaks: JSON.stringify(rows).includes(key) }).toEqual({ table: name, leaks: false });
    }
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("\n")).not.toContain(key);
  });
});
