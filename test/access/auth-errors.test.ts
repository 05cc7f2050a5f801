import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateApiKey } from "../../src/access/api-key.ts";
import { testInstance, type TestInstance } from "../support/instance.ts";

let server: TestInstance;
beforeAll(async () => {
  server = await testInstance();
});
afterAll(() => server.stop());

async function refusal(authorization: string) {
  const response = await server.call("/v1/usage", { headers: { authorization } });
  return {
    status: response.status,
    ...((await response.json()) as { error: string; message: string; doc_url: string }),
  };
}

/** One character changed, keeping it lowercase hex: only the checksum can notice. */
const mistyped = (key: string, position: number) =>
  key.slice(0, position) + (key[position] === "a" ? "b" : "a") + key.slice(position + 1);

describe("a refused key says precisely what is wrong, under the one code the contract gives", () => {
  test("missing Bearer prefix, wrong scheme, wrong prefix, wrong length, stray character and checksum typo differ", async () => {
    const key = generateApiKey();
    const cases = {
      noBearer: await refusal(key),
      basic: await refusal("Basic dXNlcjpwYXNz"),
      twoTokens: await refusal(`Bearer ${key} ${key}`),
      otherToken: await refusal("Bearer sk_live_abc"),
      upperPrefix: await refusal(`Bearer WBK_${key.slice(4)}`),
      short: await refusal(`Bearer ${key.slice(0, -3)}`),
      long: await refusal(`Bearer ${key}00`),
      strayCharacter: await refusal(`Bearer ${key.slice(0, 10)}G${key.slice(11)}`),
      checksum: await refusal(`Bearer ${mistyped(key, 30)}`),
    };
    for (const [name, body] of Object.entries(cases)) {
      expect([name, body.status, body.error, body.doc_url]).toEqual([
        name,
        401,
        "MALFORMED_API_KEY",
        "/docs/errors#MALFORMED_API_KEY",
      ]);
      expect(body.message).not.toContain(key.slice(4, 20)); // the key is never echoed
    }
    const messages = Object.values(cases).map((body) => body.message);
    expect(new Set(messages).size).toBe(messages.length);
    expect(cases.noBearer.message).toContain("without the 'Bearer ' prefix");
    expect(cases.basic.message).toContain("'Basic' scheme");
    expect(cases.short.message).toContain("61 characters after 'wbk_' where a key has 64");
    expect(cases.long.message).toContain("66 characters after 'wbk_'");
    expect(cases.strayCharacter.message).toContain("not lowercase hex at position 11");
    expect(cases.checksum.message).toContain("checksum");
    expect(cases.upperPrefix.message).toContain("lower case");
  });

  test("an unknown but well-formed key and a missing header keep their own codes, each with its doc_url", async () => {
    const unknown = await refusal(`Bearer ${generateApiKey()}`);
    expect([unknown.error, unknown.doc_url]).toEqual(["INVALID_API_KEY", "/docs/errors#INVALID_API_KEY"]);
    const missing = await refusal("");
    expect([missing.error, missing.doc_url]).toEqual(["MISSING_API_KEY", "/docs/errors#MISSING_API_KEY"]);
  });

  test("every doc_url anchor exists on /docs/errors", async () => {
    const page = await (await server.call("/docs/errors")).text();
    for (const code of ["MALFORMED_API_KEY", "TIER_REQUIRED", "RATE_LIMITED", "INTERNAL_ERROR"])
      expect(page).toContain(`<section id="${code}">`);
  });
});
