import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ listen: true });
});
afterAll(() => server.stop());

/** A body sent in chunks without a Content-Length, `total` bytes of `fill`. */
function chunked(total: number, prefix = "", fill = " "): ReadableStream<Uint8Array> {
  let sent = 0;
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      if (sent === 0) {
        controller.enqueue(encoder.encode(prefix));
        sent = prefix.length;
        return;
      }
      if (sent >= total) return controller.close();
      const size = Math.min(16 * 1024, total - sent);
      controller.enqueue(encoder.encode(fill.repeat(size)));
      sent += size;
    },
  });
}

describe("field names that are Object.prototype's own are unknown fields", () => {
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    test(`body field '${name}' is refused with 400 and never reaches a receipt`, async () => {
      const { key } = await server.accountWithKey("enterprise");
      const body = `{${JSON.stringify(name)}:{"x":1},${JSON.stringify(CHICAGO_TO_DALLAS).slice(1)}`;
      const response = await server.call("/v1/rates/lookup", {
        method: "POST",
        key,
        body,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { error: string; details: { field: string }[] };
      expect(answer.error).toBe("INVALID_REQUEST");
      expect(answer.details.map((d) => d.field)).toContain(name);
    });
  }

  test("query parameter 'constructor' is refused too", async () => {
    const { key } = await server.accountWithKey("enterprise");
    const response = await server.call("/v1/diesel/trends?region=PADD3&constructor=1", { key });
    expect(response.status).toBe(400);
    expect(
      defined(((await response.json()) as { details: { field: string }[] }).details[0], "the first detail").field,
    ).toBe("constructor");
  });
});

describe("every body is capped at 64 KiB, chunked or not", () => {
  test("/mcp: a chunked JSON-RPC body over the cap is a 413 from the error table, not a stored receipt", async () => {
    const { key } = await server.accountWithKey("enterprise");
    const prefix = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rate-lookup","arguments":${JSON.stringify({ ...CHICAGO_TO_DALLAS, origin: "Chicago, IL" }).slice(0, -1)},"pad":"`;
    const response = await server.call("/mcp", {
      method: "POST",
      key,
      body: chunked(900_000, prefix, "x"),
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe("PAYLOAD_TOO_LARGE");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const stored = defined(
      server.db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM receipts").get(),
      "the row of SELECT count(*) AS n FROM receipts",
    );
    expect(stored.n).toBe(0);
  });

  test("/mcp: a small call still works", async () => {
    const { key } = await server.accountWithKey("enterprise");
    const response = await server.call("/mcp", {
      method: "POST",
      key,
      json: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "rate-lookup", arguments: CHICAGO_TO_DALLAS },
      },
      headers: { accept: "application/json, text/event-stream" },
    });
    expect(response.status).toBe(200);
    const reply = (await response.json()) as { result: { isError: boolean } };
    expect(reply.result.isError).toBe(false);
  });

  test("a dashboard form sent chunked past the cap is a 413, not read whole", async () => {
    const response = await fetch(`${server.url}/signin`, {
      method: "POST",
      body: chunked(2_000_000, "email=a%40b.c&password=", "x"),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe("PAYLOAD_TOO_LARGE");
  });
});

describe("malformed cookies and headers never cause a 500", () => {
  const hostile = ["%E0%A4%A", "%", "%%%%", "\u00ff", "a=b=c", ";;;;", "x".repeat(4000)];
  for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/admin", "/signin"]) {
    test(`${path} with broken session cookies`, async () => {
      for (const value of hostile) {
        for (const name of ["__Host-waybill_session", "waybill_session"]) {
          const response = await fetch(server.url + path, {
            headers: { cookie: `${name}=${value}` },
            redirect: "manual",
          });
          expect(response.status).toBeLessThan(500);
        }
      }
    });
  }

  test("POST /signout with a broken cookie and garbage Origin is refused, not crashed", async () => {
    for (const origin of ["null", "http://[::1", "::::"]) {
      const response = await fetch(`${server.url}/signout`, {
        method: "POST",
        headers: {
          cookie: "__Host-waybill_session=%E0%A4%A",
          origin,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "_csrf=x",
        redirect: "manual",
      });
      expect(response.status).toBeLessThan(500);
    }
  });

  test("odd Authorization and Content-Type headers get error-table answers", async () => {
    for (const authorization of [
      "Bearer",
      "Bearer  ",
      "bearer wbk_",
      "Bearer \u00ff",
      `Bearer ${"a".repeat(10_000)}`,
    ]) {
      const response = await server.call("/v1/rates/lookup", {
        method: "POST",
        json: CHICAGO_TO_DALLAS,
        headers: { authorization },
      });
      expect(response.status).toBe(401);
    }
    const { key } = await server.accountWithKey("enterprise");
    for (const contentType of [
      "application/json; charset=\u00ff",
      "multipart/form-data; boundary=",
      "application/json;;;",
    ]) {
      const response = await server.call("/v1/rates/lookup", {
        method: "POST",
        key,
        body: "{}",
        headers: { "content-type": contentType },
      });
      expect(response.status).toBeLessThan(500);
    }
  });
});
