import { rmSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { ensureDebianTool } from "./debian.ts";

/** Debian's Chromium, which every browser suite drives headless. */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether Chromium is there to drive, installed with apt-get when missing; false if that fails too. */
export const chromiumAvailable = (): boolean => ensureDebianTool(CHROMIUM, "chromium");

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** Sign in through the form, as a person does, and wait for the dashboard. */
export async function signIn(page: Page, base: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.fill("input[name=email]", who.email);
  await page.fill("input[name=password]", who.password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${base}/dashboard`);
}

/** A browser suite's end: each part that was started is let go (the browser, the server, the suite's folder). */
export async function endBrowserSuite(parts: {
  browser?: Browser;
  server?: { stop(): unknown };
  dir?: string;
}): Promise<void> {
  await parts.browser?.close();
  await parts.server?.stop();
  if (parts.dir) rmSync(parts.dir, { recursive: true, force: true });
}
