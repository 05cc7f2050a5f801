import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";

// The agent guide's recipes, taken from the guide as the server serves it and followed as written,
// against real answers over a real port.

let server: TestInstance;
let folder: string;
beforeAll(async () => {
  server = await testInstance({ listen: true });
  folder = mkdtempSync(join(tmpdir(), "waybill-guide-"));
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

async function guide(): Promise<string> {
  const response = await fetch(`${server.url}/docs/agents.md`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The body of the first fenced block of `language` after `heading` in the guide. */
function fencedBlock(text: string, heading: string, language: string): string {
  const section = text.slice(text.indexOf(heading));
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!match?.[1]) throw new Error(`no ${language} block after ${heading}`);
  return match[1];
}

interface CheckOutput {
  receipt_is_this_answers: boolean;
  leaf_entry: string;
  leaf_entry_matches: boolean;
  response_sha256: string;
  response_matches: boolean;
}

/** Run the guide's script as it tells the reader to: `node check-answer.mjs answer.json report.json`. */
function runCheck(script: string, answer: unknown, report: unknown): CheckOutput {
  writeFileSync(join(folder, "check-answer.mjs"), script);
  writeFileSync(join(folder, "answer.json"), JSON.stringify(answer));
  writeFileSync(join(folder, "report.json"), JSON.stringify(report));
  const runtime = Bun.which("node") ?? process.execPath;
  const run = Bun.spawnSync([runtime, "check-answer.mjs", "answer.json", "report.json"], { cwd: folder });
  expect(run.stderr.toString()).toBe("");
  return JSON.parse(run.stdout.toString()) as CheckOutput;
}

describe("the agent guide, followed literally", () => {
  test("its verification recipe recomputes the recorded hashes of a real answer and its receipt", async () => {
    const { key } = await server.accountWithKey("professional");
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const answered = await fetch(`${server.url}/v1/rates/lookup`, {
      method: "POST",
      headers,
      body: JSON.stringify(CHICAGO_TO_DALLAS),
    });
    expect(answered.status).toBe(200);
    // The bytes as received, as a client would save them.
    const answer = JSON.parse(await answered.text()) as Record<string, unknown>;
    const audit = await fetch(`${server.url}/v1/reports/audit?receipt_id=${answer.receipt_id}`, { headers });
    expect(audit.status).toBe(200);
    const report = (await audit.json()) as { log: { leaf_entry: string; receipt: { response_sha256: string } } };

    const script = fencedBlock(await guide(), "## 4. Verify an answer", "js");
    const checked = runCheck(script, answer, report);
    expect(checked).toEqual({
      receipt_is_this_answers: true,
      leaf_entry: report.log.leaf_entry,
      leaf_entry_matches: true,
      response_sha256: report.log.receipt.response_sha256,
      response_matches: true,
    });

    // The same recipe notices an answer that is not the one recorded.
    const altered = runCheck(script, { ...answer, rate_per_mile: Number(answer.rate_per_mile) + 0.01 }, report);
    expect(altered.response_matches).toBe(false);
    expect(altered.leaf_entry_matches).toBe(true);
  });

  test("its MCP client configuration parses, points at the MCP route, and connects with the key", async () => {
    const text = await guide();
    const config = JSON.parse(fencedBlock(text, "## 2. Pick a skill", "json")) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const entries = Object.values(config.mcpServers);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    if (!entry) throw new Error("no server in the configuration");
    expect(entry.type).toBe("http");
    expect(new URL(entry.url).origin).toBe(server.url);
    expect(new URL(entry.url).pathname).toBe("/mcp");
    expect(entry.headers.Authorization).toStartWith("Bearer wbk_");

    // A client uses it as written, with the reader's key in place of the placeholder.
    const { key } = await server.accountWithKey("starter");
    const headers = { ...entry.headers, Authorization: `Bearer ${key}` };
    const client = new Client({ name: "guide-reader", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
    const { tools } = await client.listTools();
    const lookup = tools.find((tool) => tool._meta?.["waybill/rest"] === "POST /v1/rates/lookup");
    if (!lookup) throw new Error("no rate-lookup tool listed");
    const result = await client.callTool({ name: lookup.name, arguments: CHICAGO_TO_DALLAS });
    expect(result.isError).toBe(false);
    expect((result.structuredContent as { receipt_id: string }).receipt_id).toMatch(/^rcpt_/);
    await client.close();
  });
});
