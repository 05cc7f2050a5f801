import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { t } from "elysia";
import { ERROR_STATUS } from "../../src/errors.ts";
import { agentGuide } from "../../src/http/routes/docs/agent-guide.ts";
import { llmsTxt } from "../../src/http/routes/docs/llms-txt.ts";
import type { AnySkill } from "../../src/skills/types.ts";
import { testInstance, type TestInstance } from "../support/instance.ts";

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
      ...server.runtime.skills[0]!,
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
    const paths = [...llms.matchAll(/\(https:\/\/rates\.example\.com([^)]*)\)/g)].map((match) => match[1]!);
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
