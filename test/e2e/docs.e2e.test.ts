import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { CHROMIUM, launchChromium } from "../support/browser.ts";
import { IDEMPOTENCY_KEY_EXAMPLE } from "../../src/http/routes/openapi/document.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";

describe.skipIf(!existsSync(CHROMIUM))("/docs renders the API reference in Chromium, from this origin only", () => {
  let server: TestInstance;
  let browser: Browser;
  beforeAll(async () => {
    server = await testInstance({ listen: true });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("the reference renders, under the page's CSP, with no request to another origin", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const foreign: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("response", (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.status()} ${answer.url()}`);
    });
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith(server.url) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
    });
    const response = await page.goto(`${server.url}/docs`);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    // Scalar lists each operation by its summary; the document is fetched from /openapi.json.
    await page.getByText("/v1/rates/lookup").first().waitFor({ timeout: 30_000 });
    const text = await page.locator("body").innerText();
    // Groups other than the first start collapsed; the first one's operations and the document's title are on screen.
    for (const shown of ["/v1/rates/lookup", "/v1/fuel/surcharge", "OpenAPI 3.1", "Waybill"])
      expect(text).toContain(shown);
    await page.screenshot({ path: "test-results/docs-desktop.png" });
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  test("the console answers a second send with another lane: each send carries its own Idempotency-Key", async () => {
    const { key } = await server.accountWithKey("starter");
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${server.url}/docs`);
    await page.getByText("/v1/rates/lookup").first().waitFor({ timeout: 30_000 });
    await page.getByPlaceholder("Token").first().fill(key);
    await page
      .getByRole("button", { name: /test request/i })
      .first()
      .click();
    const send = page.getByRole("button", { name: /^Send/ }).first();
    const sendLookup = async () => {
      const answered = page.waitForResponse(
        (answer) => answer.url().endsWith("/v1/rates/lookup") && answer.request().method() === "POST",
        { timeout: 30_000 },
      );
      await send.click();
      const answer = await answered;
      const headers = await answer.request().allHeaders();
      return { status: answer.status(), idempotencyKey: headers["idempotency-key"], body: answer.request().postData() };
    };

    // The request body's editor: the last one on the page until a response adds its own viewer.
    const editor = page.locator(".cm-content").nth((await page.locator(".cm-content").count()) - 1);
    await expect(editor.innerText()).resolves.toContain("Dallas, TX");
    const first = await sendLookup();
    // Another lane: replace the pre-filled body in the console's editor, then send again.
    await editor.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(JSON.stringify({ ...CHICAGO_TO_DALLAS, destination: "Denver, CO" }));
    const second = await sendLookup();

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toContain("Denver, CO");
    expect(first.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.idempotencyKey).not.toBe(second.idempotencyKey);
    expect(first.idempotencyKey).not.toBe(IDEMPOTENCY_KEY_EXAMPLE);
    await page.close();
  }, 120_000);
});
