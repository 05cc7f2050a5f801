import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { configureLog, log } from "../../src/ops/log.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
let lines: string[] = [];
beforeAll(async () => {
  server = await testInstance({ listen: true });
});
afterAll(() => server.stop());
afterEach(() => configureLog({ level: "warn", format: "text", write: (line) => console.error(line) }));

function capture(format: "json" | "text" = "json", level: "info" | "warn" = "info") {
  lines = [];
  configureLog({ format, level, write: (line) => lines.push(line) });
}
const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

/** Start a POST whose body never completes, then hang up. */
async function abortedUpload(key: string, chunked: boolean): Promise<void> {
  const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
  await new Promise((resolve) => socket.on("connect", resolve));
  socket.write(
    `POST /v1/rates/lookup HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `${chunked ? "Transfer-Encoding: chunked" : "Content-Length: 50000"}\r\n\r\n`,
  );
  socket.write(chunked ? '10\r\n{"origin":"Chica\r\n' : '{"origin":"Chica');
  await Bun.sleep(150);
  socket.destroy();
  await Bun.sleep(300);
}

describe("access log", () => {
  test("one JSON line per request with id, route, status, latency, account and key display id, never the key", async () => {
    const { key, accountId } = await server.accountWithKey("enterprise");
    capture("json");
    const response = await server.call("/v1/rates/lookup", { method: "POST", key, json: CHICAGO_TO_DALLAS });
    await server.call("/nowhere");
    await server.call("/v1/usage", { key });
    await Bun.sleep(20);
    const [answered, missing, usage] = entries().filter((e) => e.event === "request");
    expect(usage).toMatchObject({
      route: "/v1/usage",
      status: 200,
      account_id: accountId,
      key: `${key.slice(0, 12)}…`,
    });
    expect(answered).toMatchObject({
      level: "info",
      request_id: response.headers.get("x-request-id"),
      method: "POST",
      route: "/v1/rates/lookup",
      status: 200,
      account_id: accountId,
      key: `${key.slice(0, 12)}…`,
    });
    expect(typeof answered?.latency_ms).toBe("number");
    expect(Date.parse(String(answered?.time))).toBeGreaterThan(0);
    expect(missing).toMatchObject({ route: "unmatched", status: 404, account_id: null, key: null });
    expect(lines.join("\n")).not.toContain(key);
    expect(lines.join("\n")).not.toContain("Chicago");
  });

  test("text format and level: access lines are info, so --log-level warn drops them", async () => {
    capture("text");
    await fetch(`${server.url}/healthz`);
    await Bun.sleep(20);
    expect(lines.at(-1)).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}request request_id=req_\w+ method=GET route=\/healthz status=200 latency_ms=[\d.]+ account_id=null key=null$/,
    );
    capture("json", "warn");
    await fetch(`${server.url}/healthz`);
    await Bun.sleep(20);
    expect(lines).toEqual([]);
  });
});

describe("a client that goes away", () => {
  test("is logged and counted as 499, records no usage, and logs no stack trace", async () => {
    const { key, accountId } = await server.accountWithKey("enterprise");
    capture("json");
    await abortedUpload(key, false);
    await abortedUpload(key, true);
    await server.runtime.usage.flush();
    const rows = defined(
      server.db.$client
        .query<{ n: number }, [string]>("SELECT count(*) AS n FROM usage_events WHERE account_id = ?")
        .get(accountId),
      "the usage count",
    );
    expect(rows.n).toBe(0);
    const requests = entries().filter((e) => e.event === "request");
    expect(requests.map((e) => e.status)).toEqual([499, 499]);
    expect(entries().filter((e) => e.level === "error")).toEqual([]);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).not.toContain('route="/v1/rates/lookup",status="500"');
  });
});

describe("repeated identical failures", () => {
  test("the first is written with its stack, the rest of the window only counted", async () => {
    let now = 1_000_000;
    capture("json");
    configureLog({ now: () => now });
    for (let i = 0; i < 500; i++)
      log.failure("commit_failed", new Error("database or disk is full"), { request_id: `req_${i}` });
    log.failure("commit_failed", new Error("another failure"));
    expect(entries()).toHaveLength(2);
    expect(entries()[0]).toMatchObject({
      level: "error",
      event: "commit_failed",
      message: "database or disk is full",
      request_id: "req_0",
    });
    expect(String(entries()[0]?.stack)).toContain("Error");
    now += 10_000;
    log.failure("commit_failed", new Error("database or disk is full"));
    expect(entries()[2]).toMatchObject({ message: "database or disk is full", suppressed_since_last: 499 });
    expect(entries()[2]?.stack).toBeUndefined();
  });
});

describe("a refusal sent compressed", () => {
  test("is logged and counted with the status the client received, whatever the method", async () => {
    const { key } = await server.accountWithKey("explorer"); // rate-alerts needs starter: 403
    const calls: { method: string; path: string; key?: string; json?: unknown }[] = [
      { method: "GET", path: "/v1/alerts" }, // 401: no key
      { method: "GET", path: "/v1/alerts", key }, // 403: tier
      { method: "PATCH", path: "/v1/alerts/alrt_nope" }, // 401
      { method: "DELETE", path: "/v1/alerts/alrt_nope", key }, // 403
      { method: "POST", path: "/v1/rates/lookup", json: CHICAGO_TO_DALLAS }, // 401
      { method: "GET", path: "/v1/diesel/trends?weeks=lots", key }, // 400: not a number
    ];
    capture("json");
    const sent = new Map<string, number>();
    for (const call of calls) {
      const response = await server.call(call.path, {
        method: call.method,
        key: call.key,
        json: call.json,
        headers: { "accept-encoding": "gzip" },
      });
      await response.arrayBuffer();
      sent.set(response.headers.get("x-request-id") ?? "", response.status);
    }
    await Bun.sleep(50);
    const logged = new Map(
      entries()
        .filter((entry) => sent.has(String(entry.request_id)))
        .map((entry) => [String(entry.request_id), entry.status]),
    );
    expect([...sent.values()].every((status) => status >= 400)).toBe(true);
    expect(logged).toEqual(sent);
    const metrics = await (await server.call("/metrics")).text();
    expect(metrics).not.toMatch(
      /^waybill_http_requests_total\{method="(GET|PATCH|DELETE)",route="\/v1\/alerts.*status="200"\}/m,
    );
    for (const route of ["/v1/alerts", "/v1/alerts/:id"])
      expect(metrics).toMatch(
        new RegExp(`^waybill_http_requests_total\\{method="\\w+",route="${route}",status="40[13]"\\}`, "m"),
      );
  });
});
