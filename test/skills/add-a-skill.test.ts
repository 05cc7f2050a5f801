import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { SKILLS } from "../../src/skills/registry.ts";
import { defineSkill } from "../../src/skills/types.ts";
import { accountWithPassword, PASSWORD } from "../support/accounts.ts";
import { testInstance } from "../support/instance.ts";
import { csrfTokenIn, form, ORIGIN, sessionCookieFrom } from "../dashboard/support.ts";

/** A skill that exists only in this test: one declaration, added to the registry's list the way registry.ts lists skills. */
const echoSkill = defineSkill({
  name: "echo-words",
  minimumTier: "starter",
  description: "Test-only: counts the letters of a word.",
  rest: { method: "POST", path: "/v1/test/echo" },
  input: Type.Object({ word: Type.String({ minLength: 1 }) }),
  output: Type.Object({ word: Type.String(), letters: Type.Integer() }),
  replayable: true,
  handler: (input) => ({
    answer: { word: input.word, letters: input.word.length },
    factorVersions: [],
    modelVersion: "echo/1",
  }),
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_BODY = { "content-type": "application/json" };

async function instanceWithEchoSkill() {
  const { db, app } = await testInstance({ skills: [...SKILLS, echoSkill] });
  const call = (path: string, init: RequestInit = {}) => app.handle(new Request(ORIGIN + path, init));
  await accountWithPassword(db, "ada@example.com", "starter");
  const signedIn = await call("/signin", {
    method: "POST",
    headers: FORM,
    body: form({ email: "ada@example.com", password: PASSWORD }),
  });
  const cookie = sessionCookieFrom(signedIn);
  return { call, cookie };
}

describe("adding a skill is one declaration and one registry entry", () => {
  test("the new skill shows in the scope picker, /pricing, REST, invoke, MCP, /v1/skills and OpenAPI", async () => {
    const { call, cookie } = await instanceWithEchoSkill();

    const keysPage = await (await call("/dashboard/keys", { headers: { cookie } })).text();
    expect(keysPage).toContain('value="echo-words"');
    expect(await (await call("/pricing")).text()).toContain("echo-words");

    // A key scoped to the new skill only, created through the dashboard's form.
    const created = await call("/dashboard/keys", {
      method: "POST",
      headers: { ...FORM, cookie },
      body: form({ _csrf: csrfTokenIn(keysPage), scopes: "echo-words" }),
    });
    expect(created.status).toBe(201);
    const [key] = /wbk_[0-9a-f]{64}/.exec(await created.text()) ?? [];
    const auth = { authorization: `Bearer ${key}` };

    const rest = await call("/v1/test/echo", {
      method: "POST",
      headers: { ...JSON_BODY, ...auth },
      body: JSON.stringify({ word: "freight" }),
    });
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({
      word: "freight",
      letters: 7,
      receipt_id: expect.stringMatching(/^rcpt_/),
    });

    const invoked = await call("/v1/agent/invoke/echo-words", {
      method: "POST",
      headers: { ...JSON_BODY, ...auth },
      body: JSON.stringify({ word: "lane" }),
    });
    expect(await invoked.json()).toMatchObject({ word: "lane", letters: 4 });

    // The key's scope is the skill's name: rate-lookup is refused for it.
    const otherSkill = await call("/v1/agent/invoke/rate-lookup", {
      method: "POST",
      headers: { ...JSON_BODY, ...auth },
      body: "{}",
    });
    expect(await otherSkill.json()).toMatchObject({ error: "SCOPE_REQUIRED", key_scopes: ["echo-words"] });

    const mcp = (method: string, params: Record<string, unknown> = {}) =>
      call("/mcp", {
        method: "POST",
        headers: { ...JSON_BODY, ...auth, accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }).then((response) => response.json() as Promise<{ result: Record<string, unknown> }>);
    const { result: listed } = await mcp("tools/list");
    expect((listed.tools as { name: string }[]).map((tool) => tool.name)).toContain("echo-words");
    const { result: toolCall } = await mcp("tools/call", { name: "echo-words", arguments: { word: "reefer" } });
    expect(toolCall).toMatchObject({ isError: false, structuredContent: { word: "reefer", letters: 6 } });

    const skills = (await (await call("/v1/skills", { headers: auth })).json()) as {
      skills: Record<string, unknown>[];
    };
    expect(skills.skills.find((skill) => skill.name === "echo-words")).toMatchObject({
      scope: "echo-words",
      minimum_tier: "starter",
      path: "/v1/test/echo",
      available_to_this_key: true,
    });

    const openapi = (await (await call("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(openapi.paths["/v1/test/echo"]?.post?.operationId).toBe("echo-words");
  });
});
