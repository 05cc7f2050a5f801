import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { t } from "elysia";
import { ERROR_STATUS } from "../../src/errors.ts";
import { agentGuide } from "../../src/http/routes/docs/agent-guide.ts";
import { llmsTxt } from "../../src/http/routes/docs/llms-txt.ts";
import { mcpClientConfig } from "../../src/http/routes/docs/mcp-client-config.ts";
import type { AnySkill } from "../../src/skills/types.ts";
import { testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance({ http: { publicUrl: "https://rates.example.com" } });
});
afterAll(() => server.stop());

const text = async (path: string) => (await server.call(path)).text();

describe("/llms.txt and the agent guide follow the registry", () => {
  test("every registered skill is listed with its route and tier in both", async () => {
    const [llms, guide] = [await text("/llms.txt"), await text("/docs/agents.md")];
    for (const skill of server.runtime.skills) {
      expect(llms).toContain(
        `[${skill.name}](https://rates.example.com${skill.rest.path}): ${skill.rest.method} ${skill.rest.path}, ${skill.minimumTier} tier`,
      );
      expect(guide).toContain(
        `| \`${skill.name}\` | \`${skill.rest.method} ${skill.rest.path}\` | ${skill.minimumTier} |`,
      );
    }
  });

  test("a skill added to the registry appears without touching the documents", async () => {
    const extra = {
      ...defined(server.runtime.skills[0], "the first registered skill"),
      name: "throwaway-skill",
      rest: { method: "POST", path: "/v1/throwaway" },
      input: t.Object({}),
    } as unknown as AnySkill;
    const skills = [...server.runtime.skills, extra];
    expect(llmsTxt(skills, "http://x")).toContain("[throwaway-skill](http://x/v1/throwaway)");
    expect(agentGuide(skills, "http://x")).toContain("`POST /v1/throwaway`");
  });

  test("the guide lists every error code with its status, and covers the four steps", async () => {
    const guide = await text("/docs/agents.md");
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(guide).toContain(`\`${status}\` \`${code}\``);
    for (const step of [
      "## 1. Authenticate",
      "## 2. Pick a skill",
      "## 3. Read receipts and limits",
      "## 4. Verify an answer",
    ])
      expect(guide).toContain(step);
  });

  test("every link in /llms.txt is a route this server serves", async () => {
    const llms = await text("/llms.txt");
    const paths = [...llms.matchAll(/\(https:\/\/rates\.example\.com([^)]*)\)/g)].map(([, path]) =>
      defined(path, "a linked path"),
    );
    expect(paths.length).toBeGreaterThan(server.runtime.skills.length);
    for (const path of paths) {
      const { status } = await server.call(path);
      // 401 (needs a key) and 405 (a POST route fetched with GET) both prove the route exists.
      expect({ path, found: status !== 404 }).toEqual({ path, found: true });
    }
  });

  test("served as markdown with public caching", async () => {
    const response = await server.call("/llms.txt");
    expect(response.headers.get("content-type")).toStartWith("text/markdown");
    expect(response.headers.get("cache-control")).toContain("public");
  });
});

describe("docs/api.md's MCP client configuration", () => {
  test("is the entry the server generates for its default address, and names the MCP route", async () => {
    const page = await Bun.file(new URL("../../docs/api.md", import.meta.url)).text();
    const section = page.slice(page.indexOf("## MCP"));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const config = JSON.parse(block) as { mcpServers: { waybill: { url: string } } };
    expect(new URL(config.mcpServers.waybill.url).pathname).toBe("/mcp");
    expect(block.trim()).toBe(mcpClientConfig("http://127.0.0.1:8080"));
    // The route it names answers MCP (a request without a key is refused the way /mcp refuses it).
    const response = await server.call("/mcp", { method: "POST", json: { jsonrpc: "2.0", id: 1, method: "ping" } });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe("MISSING_API_KEY");
  });
});
