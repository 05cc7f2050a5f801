import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateApiKey } from "../../src/access/api-key.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ listen: true });
});
afterAll(() => server.stop());

async function expectError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  const requestId = response.headers.get("x-request-id");
  expect(requestId).toMatch(/^req_[0-9A-Z]{26}$/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.error).toBe(error);
  expect(typeof body.message).toBe("string");
  expect(body.request_id).toBe(defined(requestId, "requestId"));
  return body;
}

describe("every row of the error table, over real HTTP", () => {
  test("401 MISSING_API_KEY with WWW-Authenticate", async () => {
    const response = await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS });
    expect(response.headers.get("www-authenticate")).toStartWith("Bearer");
    const body = await expectError(response, 401, "MISSING_API_KEY");
    expect(body.auth_obj_id).toBeUndefined();
  });

  test("401 MALFORMED_API_KEY for a wrong shape, a wrong scheme, and a bad checksum", async () => {
    const key = generateApiKey();
    const badChecksum = key.slice(0, -1) + (key.endsWith("0") ? "1" : "0");
    for (const authorization of [
      "Bearer nope",
      "Basic dXNlcjpwYXNz",
      `Bearer ${badChecksum}`,
      `Bearer ${key.toUpperCase()}`,
    ]) {
      const response = await server.call("/v1/rates/lookup", {
        method: "POST",
        json: CHICAGO_TO_DALLAS,
        headers: { authorization },
      });
      expect(response.headers.get("www-authenticate")).toStartWith("Bearer");
      await expectError(response, 401, "MALFORMED_API_KEY");
    }
  });

  test("401 INVALID_API_KEY for a well-formed key that was never issued", async () => {
    const response = await server.call("/v1/rates/lookup", {
      method: "POST",
      json: CHICAGO_TO_DALLAS,
      key: generateApiKey(),
    });
    expect(response.headers.get("www-authenticate")).toContain("invalid_token");
    await expectError(response, 401, "INVALID_API_KEY");
  });

  test("401 REVOKED_API_KEY on the very next request after rotation", async () => {
    const { email } = await server.accountWithKey("explorer");
    const { issueKey } = await import("../../src/access/keys.ts");
    const { findAccountByEmail } = await import("../../src/access/accounts.ts");
    const account = defined(
      await findAccountByEmail(server.runtime.db, email),
      "findAccountByEmail(server.runtime.db, email)",
    );
    const first = await issueKey(server.runtime.db, account.id, null, server.clock.now());
    expect(
      (await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key: first.key })).status,
    ).toBe(200);
    const second = await issueKey(server.runtime.db, account.id, null, server.clock.now());
    const refused = await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key: first.key });
    await expectError(refused, 401, "REVOKED_API_KEY");
    expect(
      (await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key: second.key })).status,
    ).toBe(200);
  });

  test("403 TIER_REQUIRED with exactly the contract's fields", async () => {
    const { key, authObjId } = await server.accountWithKey("starter");
    const response = await server.call("/v1/reports/audit?receipt_id=rcpt_01JAAAAAAAAAAAAAAAAAAAAAAA", { key });
    const body = await expectError(response, 403, "TIER_REQUIRED");
    expect(body).toMatchObject({
      required_tier: "professional",
      current_tier: "starter",
      upgrade_url: "/pricing",
      auth_obj_id: authObjId,
    });
    expect(response.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  });

  test("403 SCOPE_REQUIRED names the scope and the key's scopes", async () => {
    const { key, authObjId } = await server.accountWithKey("professional", ["audit-report"]);
    const response = await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key });
    const body = await expectError(response, 403, "SCOPE_REQUIRED");
    expect(body).toMatchObject({ required_scope: "rate-lookup", key_scopes: ["audit-report"], auth_obj_id: authObjId });
  });

  test("404 NOT_FOUND for an unknown route and an unknown skill", async () => {
    await expectError(await server.call("/v1/nothing-here"), 404, "NOT_FOUND");
    const { key } = await server.accountWithKey("explorer");
    await expectError(
      await server.call("/v1/agent/invoke/teleport", { method: "POST", json: {}, key }),
      404,
      "NOT_FOUND",
    );
  });

  test("413 PAYLOAD_TOO_LARGE over 64 KiB, declared or streamed", async () => {
    const { key } = await server.accountWithKey("explorer");
    const big = JSON.stringify({ ...CHICAGO_TO_DALLAS, padding: "x".repeat(70 * 1024) });
    const declared = await server.call("/v1/rates/lookup", {
      method: "POST",
      body: big,
      key,
      headers: { "content-type": "application/json" },
    });
    await expectError(declared, 413, "PAYLOAD_TOO_LARGE");
    const chunks = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await server.call("/v1/rates/lookup", {
      method: "POST",
      body: chunks,
      key,
      headers: { "content-type": "application/json" },
    });
    await expectError(streamed, 413, "PAYLOAD_TOO_LARGE");
  });

  test("415 UNSUPPORTED_MEDIA_TYPE for a non-JSON body", async () => {
    const { key } = await server.accountWithKey("explorer");
    const response = await server.call("/v1/rates/lookup", {
      method: "POST",
      body: "origin=Chicago",
      key,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await expectError(response, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  test("400 INVALID_REQUEST: malformed JSON, wrong types, unknown enum values with the allowed list, unknown fields", async () => {
    const { key, authObjId } = await server.accountWithKey("explorer");
    const malformed = await server.call("/v1/rates/lookup", {
      method: "POST",
      body: "{oops",
      key,
      headers: { "content-type": "application/json" },
    });
    expect((await expectError(malformed, 400, "INVALID_REQUEST")).auth_obj_id).toBe(authObjId);

    const wrong = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: { origin: 42, destination: "Dallas, TX", equipment: "SPACESHIP", colour: "red" },
    });
    const body = await expectError(wrong, 400, "INVALID_REQUEST");
    const details = body.details as { field: string; problem: string; allowed?: string[] }[];
    expect(details.find((d) => d.field === "origin")).toBeDefined();
    expect(details.find((d) => d.field === "equipment")?.allowed).toEqual(["DRY_VAN", "REEFER", "FLATBED"]);
    expect(details.find((d) => d.field === "colour")?.problem).toBe("is not a known field");
  });

  test("422 UNRESOLVED_LOCATION lists the closest real places", async () => {
    const { key } = await server.accountWithKey("explorer");
    const response = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: { ...CHICAGO_TO_DALLAS, origin: "Qxzwvy, ZZ" },
    });
    const body = await expectError(response, 422, "UNRESOLVED_LOCATION");
    expect(body).toMatchObject({ field: "origin", input: "Qxzwvy, ZZ" });
    expect(Array.isArray(body.suggestions)).toBe(true);
  });

  test("422 AMBIGUOUS_LOCATION lists the candidates with their states; 422 NOT_ROAD_CONNECTED says why", async () => {
    const { key } = await server.accountWithKey("starter");
    const ambiguous = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: { ...CHICAGO_TO_DALLAS, origin: "Portland" },
    });
    expect(await expectError(ambiguous, 422, "AMBIGUOUS_LOCATION")).toMatchObject({
      field: "origin",
      input: "Portland",
      candidates: ["Portland, OR", "Portland, ME"],
    });
    const island = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: { ...CHICAGO_TO_DALLAS, destination: "Honolulu, HI" },
    });
    const body = await expectError(island, 422, "NOT_ROAD_CONNECTED");
    expect(body).toMatchObject({ field: "destination", input: "Honolulu, HI" });
    expect(body.message).toContain("Hawaii has no road link to the mainland");
  });

  test("429 RATE_LIMITED with Retry-After and the window fields", async () => {
    const { key } = await server.accountWithKey("explorer"); // 3 per minute
    for (let i = 0; i < 3; i++) {
      expect((await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key })).status).toBe(
        200,
      );
    }
    const response = await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key });
    const body = await expectError(response, 429, "RATE_LIMITED");
    expect(body).toMatchObject({ window: "minute", limit: 3, remaining: 0 });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  test("500 INTERNAL_ERROR leaks nothing", async () => {
    const { key } = await server.accountWithKey("explorer");
    const original = server.runtime.reference.view;
    server.runtime.reference.view = () => {
      throw new Error("secret internal detail /etc/passwd");
    };
    try {
      const response = await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key });
      const text = await response.clone().text();
      await expectError(response, 500, "INTERNAL_ERROR");
      expect(text).not.toContain("secret");
      expect(text).not.toContain("passwd");
    } finally {
      server.runtime.reference.view = original;
    }
  });

  test("every response carries X-Request-Id, and answers carry receipt_id and auth_obj_id", async () => {
    const { key, authObjId } = await server.accountWithKey("explorer");
    const response = await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.receipt_id).toMatch(/^rcpt_[0-9A-Z]{26}$/);
    expect(body.auth_obj_id).toBe(authObjId);
    for (const path of ["/healthz", "/metrics", "/v1/receipts/public-key"]) {
      expect((await server.call(path)).headers.get("x-request-id")).toMatch(/^req_/);
    }
  });
});

describe("validation", () => {
  test("a required field left out is refused, never filled with a default", async () => {
    const { key } = await server.accountWithKey("explorer");
    const response = await server.call("/v1/rates/lookup", {
      method: "POST",
      key,
      json: { origin: "Chicago, IL", destination: "Dallas, TX" },
    });
    const body = await expectError(response, 400, "INVALID_REQUEST");
    expect(body.details).toContainEqual({
      field: "equipment",
      problem: "is required",
      allowed: ["DRY_VAN", "REEFER", "FLATBED"],
    });
  });

  test("problems read as plain sentences", async () => {
    const { key } = await server.accountWithKey("explorer");
    const response = await server.call("/v1/diesel/trends?weeks=2", { key });
    const body = await expectError(response, 400, "INVALID_REQUEST");
    expect(body.details).toEqual([{ field: "weeks", problem: "must be greater or equal to 4" }]);
  });
});

test("array bounds and unknown nested fields read as plain sentences", async () => {
  const { key } = await server.accountWithKey("starter");
  const lane = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
  const tooFew = await server.call("/v1/lanes/compare", { method: "POST", key, json: { lanes: [lane] } });
  expect(((await tooFew.json()) as { details: unknown[] }).details).toContainEqual({
    field: "lanes",
    problem: "must have at least 2 items",
  });
  const nested = await server.call("/v1/lanes/compare", {
    method: "POST",
    key,
    json: { lanes: [lane, { ...lane, colour: "red" }] },
  });
  expect(((await nested.json()) as { details: unknown[] }).details).toContainEqual({
    field: "lanes.1.colour",
    problem: "is not a known field",
  });
});

test("the pipeline refuses an as_of in the future or not a real date, for every skill that takes one", async () => {
  const { key } = await server.accountWithKey("enterprise");
  const lane = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
  const calls: [string, RequestInit & { json?: unknown }, (asOf: string) => string | undefined][] = [
    ["/v1/rates/lookup", { method: "POST" }, () => undefined],
    ["/v1/fuel/surcharge", { method: "POST" }, () => undefined],
    ["/v1/market/analysis", { method: "POST" }, () => undefined],
    ["/v1/lanes/compare", { method: "POST" }, () => undefined],
    ["/v1/rates/forecast", { method: "POST" }, () => undefined],
    ["/v1/diesel/trends", { method: "GET" }, (asOf) => `/v1/diesel/trends?as_of=${asOf}`],
  ];
  const bodies: Record<string, object> = {
    "/v1/rates/lookup": lane,
    "/v1/fuel/surcharge": { region: "NATIONAL" },
    "/v1/market/analysis": {},
    "/v1/lanes/compare": { lanes: [lane, lane] },
    "/v1/rates/forecast": lane,
  };
  for (const [asOf, says] of [
    ["2031-01-01", /in the future/],
    ["2025-02-30", /real date/],
  ] as const) {
    for (const [path, init, query] of calls) {
      const response = query(asOf)
        ? await server.call(defined(query(asOf), "query(asOf)"), { key })
        : await server.call(path, { ...init, key, json: { ...bodies[path], as_of: asOf } });
      const body = await expectError(response, 400, "INVALID_REQUEST");
      const problem = (body.details as { field: string; problem: string }[]).find((d) => d.field === "as_of");
      expect(problem?.problem).toMatch(says);
    }
  }
});
