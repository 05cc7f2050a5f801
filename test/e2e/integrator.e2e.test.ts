import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { binaryInEmptyFolder, runCli, startBinary, type RunningServer } from "../support/binary.ts";

/**
 * What an integrator or an agent meets first, against the compiled binary: MCP tool names clients
 * accept, rate-alerts gated by tier on every invoke name, auth errors that say what is wrong, a
 * doc_url that leads to the code's explanation, and an unknown state named as such.
 */
describe("the integrator's first calls, against the compiled binary", () => {
  let dir: string;
  let exe: string;
  let server: RunningServer;
  const keys: Record<"explorer" | "starter", string> = { explorer: "", starter: "" };

  beforeAll(async () => {
    ({ dir, exe } = await binaryInEmptyFolder());
    for (const tier of ["explorer", "starter"] as const) {
      const email = `${tier}@example.com`;
      expect(runCli(exe, ["accounts", "create", "--email", email, "--tier", tier, "--db", "w.db"], dir).exitCode).toBe(
        0,
      );
      const created = runCli(exe, ["keys", "create", "--email", email, "--json", "--db", "w.db"], dir);
      keys[tier] = (JSON.parse(created.stdout) as { key: string }).key;
    }
    server = await startBinary(exe, ["--db", "w.db"], { cwd: dir });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, authorization?: string) =>
    fetch(server.url + path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify(body),
    });

  test("MCP tools have names clients accept and human titles", async () => {
    const listed = (await (
      await post("/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, `Bearer ${keys.starter}`)
    ).json()) as { result: { tools: { name: string; title: string }[] } };
    const tools = listed.result.tools;
    expect(tools.map((tool) => tool.name)).toContain("rate-alerts_create");
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.title).not.toBe(tool.name);
    }
  });

  test("an Explorer key gets 403 TIER_REQUIRED on every rate-alerts name; a Starter key is told the operations", async () => {
    for (const name of ["rate-alerts", "rate-alerts.create", "rate-alerts_list", "rate-alerts.nope"]) {
      const refused = await post(`/v1/agent/invoke/${name}`, {}, `Bearer ${keys.explorer}`);
      expect([name, refused.status, ((await refused.json()) as { error: string }).error]).toEqual([
        name,
        403,
        "TIER_REQUIRED",
      ]);
    }
    const chooser = await post("/v1/agent/invoke/rate-alerts", {}, `Bearer ${keys.starter}`);
    expect(chooser.status).toBe(404);
    expect(((await chooser.json()) as { operations: string[] }).operations).toContain("rate-alerts.create");
  });

  test("a key without 'Bearer' and a mistyped key get different messages, and doc_url leads to the explanation", async () => {
    const lane = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
    const typo = keys.starter.slice(0, 20) + (keys.starter[20] === "a" ? "b" : "a") + keys.starter.slice(21);
    const noBearer = (await (await post("/v1/rates/lookup", lane, keys.starter)).json()) as Record<string, string>;
    const mistyped = (await (await post("/v1/rates/lookup", lane, `Bearer ${typo}`)).json()) as Record<string, string>;
    expect([noBearer.error, mistyped.error]).toEqual(["MALFORMED_API_KEY", "MALFORMED_API_KEY"]);
    expect(noBearer.message).toContain("'Bearer ' prefix");
    expect(mistyped.message).toContain("checksum");
    const guide = await fetch(new URL(noBearer.doc_url ?? "", server.url));
    expect(guide.status).toBe(200);
    expect(await guide.text()).toContain('<section id="MALFORMED_API_KEY">');
  });

  test("'Nowhere, ZZ' is refused as an unknown state, without far-fetched suggestions", async () => {
    const refused = await post(
      "/v1/rates/lookup",
      { origin: "Nowhere, ZZ", destination: "Dallas, TX", equipment: "DRY_VAN" },
      `Bearer ${keys.starter}`,
    );
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      error: "UNRESOLVED_LOCATION",
      message: "Could not find a US place for origin 'Nowhere, ZZ': 'ZZ' is not a US state code.",
      suggestions: [],
    });
  });
});
