import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { CHROMIUM, launchChromium, signIn } from "../support/browser.ts";
import { binaryInEmptyFolder, runCli, startBinary, type RunningServer } from "../support/binary.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { defined } from "../support/defined.ts";

const USER = { email: "dispatch@example.com", password: "a long dispatcher passphrase" };

/**
 * The alerts, events and webhook pages in Chromium against the compiled binary, with JavaScript
 * turned off: every action is a plain form. A local receiver verifies what the binary sends.
 */
describe.skipIf(!existsSync(CHROMIUM))(
  "alerts, events and webhooks in the dashboard (compiled binary, no JavaScript)",
  () => {
    let dir: string;
    let exe: string;
    let server: RunningServer;
    let browser: Browser;
    let page: Page;
    const receiver: WebhookReceiver = startWebhookReceiver();

    beforeAll(async () => {
      ({ dir, exe } = await binaryInEmptyFolder());
      const created = runCli(
        exe,
        ["accounts", "create", "--email", USER.email, "--tier", "starter", "--password-stdin", "--db", "dash.db"],
        dir,
        USER.password,
      );
      expect(created.exitCode).toBe(0);
      server = await startBinary(exe, ["--db", "dash.db", "--allow-private-webhooks"], { cwd: dir });
      browser = await launchChromium();
      const context = await browser.newContext({ javaScriptEnabled: false });
      page = await context.newPage();
      await signIn(page, server.url, USER);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      receiver.stop();
    });

    test("add a webhook: the secret is shown once and signs a test event the receiver verifies", async () => {
      await page.goto(`${server.url}/dashboard/webhooks`);
      await page.fill("input[name=url]", receiver.url);
      await page.click("#create-webhook button[type=submit]");
      const secret = defined(
        await page.textContent("#new-webhook-secret"),
        'page.textContent("#new-webhook-secret")',
      ).trim();
      expect(secret).toMatch(/^whsec_/);
      receiver.secret = secret;
      await page.goto(`${server.url}/dashboard/webhooks`);
      expect(await page.locator("#new-webhook-secret").count()).toBe(0); // never shown again

      await page.click("button:has-text('Send test event')");
      const [test] = await receiver.waitFor(1);
      expect(defined(test, "test").verified).toMatchObject({ type: "webhook.test" });
      const row = page.locator("tr[data-delivery-id]").first();
      // The worker records the answer just after the receiver sent it: reload until the log shows it.
      for (let tries = 0; tries < 50; tries++) {
        await page.goto(`${server.url}/dashboard/webhooks`);
        if ((await row.textContent())?.includes("delivered")) break;
        await Bun.sleep(200);
      }
      expect(await row.textContent()).toContain("webhook.test");
      expect(await row.textContent()).toContain("delivered");
      expect(await row.textContent()).toContain("204");

      await page.click("tr[data-delivery-id] button:has-text('Resend')");
      await receiver.waitFor(2);
      expect(defined(receiver.received[1], "receiver.received[1]").id).toBe(defined(test, "test").id);
    }, 60_000);

    test("add an alert in the form; an import crossing it shows in the list, the events feed and the receiver", async () => {
      await page.goto(`${server.url}/dashboard/alerts`);
      await page.fill("input[name=name]", "US diesel spike");
      await page.selectOption("select[name=metric]", "diesel_price");
      await page.selectOption("select[name=region]", "NATIONAL");
      await page.selectOption("select[name=direction]", "ABOVE");
      await page.fill("input[name=threshold]", "9");
      await page.click("#create-alert button[type=submit]");
      expect(await page.textContent(".notice")).toContain("US diesel spike");
      expect(await page.textContent("tr[data-alert-id]")).toContain("watching");

      await page.selectOption("select[name=metric]", "diesel_price"); // and no region
      await page.fill("input[name=threshold]", "2");
      await page.click("#create-alert button[type=submit]");
      expect(await page.textContent(".error")).toContain("condition.region is required for diesel_price");

      const file = join(dir, "spike.json");
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      writeFileSync(
        file,
        JSON.stringify({ response: { data: [{ period: yesterday, series: "EMD_EPD2D_PTE_NUS_DPG", value: "9.5" }] } }),
      );
      expect(runCli(exe, ["data", "import", "eia", file, "--db", "dash.db"], dir).exitCode).toBe(0);

      const deadline = Date.now() + 20_000;
      while (
        !receiver.received.some((r) => (r.verified as { type?: string } | null)?.type === "alert.triggered") &&
        Date.now() < deadline
      )
        await Bun.sleep(100);
      expect(
        receiver.received.find((r) => (r.verified as { type?: string } | null)?.type === "alert.triggered"),
      ).toBeDefined();

      await page.goto(`${server.url}/dashboard/alerts`);
      expect(await page.textContent("tr[data-alert-id]")).toContain("firing");
      await page.goto(`${server.url}/dashboard/events?type=alert.triggered`);
      const feed = await page.textContent("#event-feed");
      expect(feed).toContain("alert.triggered");
      expect(feed).toContain("9.5");
    }, 60_000);

    test("disable an endpoint: nothing more is sent until it is enabled again", async () => {
      await page.goto(`${server.url}/dashboard/webhooks`);
      await page.click("button:has-text('Disable')");
      expect(await page.textContent("[data-endpoint-id] .badge")).toBe("disabled");
      const before = receiver.received.length;
      await page.click("button:has-text('Enable')");
      await page.click("button:has-text('Send test event')");
      await receiver.waitFor(before + 1);
      expect(defined(receiver.received.at(-1), "the last of receiver.received").verified).toMatchObject({
        type: "webhook.test",
      });
    }, 60_000);
  },
);
