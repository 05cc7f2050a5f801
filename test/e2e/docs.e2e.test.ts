import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { testInstance, type TestInstance } from "../support/instance.ts";

const CHROMIUM = "/usr/bin/chromium";

describe.skipIf(!existsSync(CHROMIUM))("/docs renders the API reference in Chromium, from this origin only", () => {
  let server: TestInstance;
  let browser: Browser;
  beforeAll(async () => {
    server = await testInstance({ listen: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
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
});
