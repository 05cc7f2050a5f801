import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { binaryInEmptyFolder, runCli, startBinary } from "../support/binary.ts";

let dir: string;
let exe: string;
beforeAll(async () => {
  ({ dir, exe } = await binaryInEmptyFolder());
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const APP = "https://app.example.com";

test("the compiled binary serves the docs from inside itself and keeps the HTTP conventions", async () => {
  expect(runCli(exe, ["accounts", "create", "--email", "api@example.com", "--tier", "starter", "--db", "api.db"], dir).exitCode).toBe(0);
  const key = JSON.parse(runCli(exe, ["keys", "create", "--email", "api@example.com", "--json", "--db", "api.db"], dir).stdout).key as string;
  const server = await startBinary(exe, ["--db", "api.db", "--cors-origins", APP, "--public-url", "https://rates.example.com"], { cwd: dir });
  try {
    const bundle = await fetch(`${server.url}/docs/assets/scalar.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    expect(await (await fetch(`${server.url}/llms.txt`)).text()).toContain("https://rates.example.com/v1/rates/lookup");

    const preflight = await fetch(`${server.url}/v1/rates/lookup`, { method: "OPTIONS", headers: { origin: APP, "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(APP);

    const call = () =>
      fetch(`${server.url}/v1/rates/lookup`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": "binary-retry", "x-request-id": "binary-test-1" },
        body: JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" }),
      });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers.get("x-request-id")).toBe("binary-test-1");
    const retry = await call();
    expect(retry.headers.get("idempotency-replayed")).toBe("true");
    expect(((await retry.json()) as { receipt_id: string }).receipt_id).toBe(((await first.json()) as { receipt_id: string }).receipt_id);
    const usage = (await (await fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as { quota: { used: number } };
    expect(usage.quota.used).toBe(1);

    const wrongMethod = await fetch(`${server.url}/v1/rates/lookup`, { headers: { authorization: `Bearer ${key}` } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toContain("POST");
  } finally {
    await server.stop("SIGTERM");
  }
}, 120_000);
