import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CHROMIUM, chromiumAvailable, launchChromium, endBrowserSuite } from "../support/browser.ts";
import { binaryInEmptyFolder, runCli, startBinary, type RunningServer } from "../support/binary.ts";

const ADMIN = { email: "admin@example.com", password: "a long admin passphrase" };
const USER = { email: "driver@example.com", first: "first user passphrase", second: "second user passphrase" };
const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

const haveChromium = chromiumAvailable();
if (!haveChromium) console.warn(`SKIPPING the admin-actions browser suite: ${CHROMIUM} is absent.`);

/**
 * What an admin does to another account, in a real Chromium against the compiled binary on a port
 * other than the default: printed password links point at that port, every action goes through a
 * confirmation page and a CSRF-protected form, takes effect on the API and sign-in at once, and
 * lands in the account audit log.
 */
describe.skipIf(!haveChromium)("admin actions in the dashboard, against the compiled binary", () => {
  let dir: string;
  let exe: string;
  let server: RunningServer;
  let base: string;
  let browser: Browser;
  let adminContext: BrowserContext;
  let userContext: BrowserContext;
  let admin: Page;
  let user: Page;
  let userKey = "";
  const problems: string[] = [];

  const cli = (args: string[], stdin?: string) => runCli(exe, [...args, "--db", "waybill.db"], dir, stdin);
  const callApi = (key: string) =>
    fetch(`${base}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(LANE),
    });
  function watch(page: Page) {
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  }
  async function setPasswordThrough(link: string, password: string) {
    await user.goto(link);
    await user.fill("input[name=password]", password);
    await user.fill("input[name=password_again]", password);
    await user.click("button[type=submit]");
    await user.waitForURL(`${base}/dashboard`);
  }
  async function signIn(page: Page, email: string, password: string) {
    await page.goto(`${base}/signin`);
    await page.fill("input[name=email]", email);
    await page.fill("input[name=password]", password);
    await page.click("button[type=submit]");
    await page.waitForLoadState();
  }
  /** From the accounts table: the action's link, its confirmation page, then its form. */
  async function adminAction(label: string) {
    await admin.goto(`${base}/dashboard/admin`);
    const row = admin.locator("tr", { hasText: USER.email });
    await row.getByRole("link", { name: label }).click();
    await admin.waitForURL(/\/confirm\//);
    await admin.locator("main form button[type=submit]").click();
    await admin.waitForLoadState();
  }

  beforeAll(async () => {
    ({ dir, exe } = await binaryInEmptyFolder());
    server = await startBinary(exe, ["--db", "waybill.db"], { cwd: dir }); // --port 0: never 8080
    base = server.url;
    browser = await launchChromium();
    adminContext = await browser.newContext();
    userContext = await browser.newContext();
    admin = await adminContext.newPage();
    user = await userContext.newPage();
    watch(admin);
    watch(user);
  }, 240_000);

  afterAll(() => endBrowserSuite({ browser, server, dir }));

  test("setup, then a CLI-created account's password link points at the running server's port", async () => {
    expect(base).not.toContain(":8080");
    const setupUrl = /open (http:\/\/\S+\/setup\/\S+) once/.exec(server.output())?.[1] ?? "";
    expect(setupUrl.startsWith(`${base}/setup/`)).toBe(true);
    await admin.goto(setupUrl);
    await admin.fill("input[name=email]", ADMIN.email);
    await admin.fill("input[name=password]", ADMIN.password);
    await admin.fill("input[name=password_again]", ADMIN.password);
    await admin.click("button[type=submit]");
    await admin.waitForURL(`${base}/dashboard`);

    const created = cli(["accounts", "create", "--email", USER.email, "--tier", "starter"]);
    expect(created.exitCode).toBe(0);
    const link = /open (http:\/\/\S+\/password\/\S+) once/.exec(created.stdout)?.[1] ?? "";
    expect(link.startsWith(`${base}/password/`)).toBe(true);
    await setPasswordThrough(link, USER.first);

    const key = cli(["keys", "create", "--email", USER.email, "--json"]);
    expect(key.exitCode).toBe(0);
    userKey = (JSON.parse(key.stdout) as { key: string }).key;
    expect((await callApi(userKey)).status).toBe(200);
  }, 60_000);

  test("the events page reads as sentences, with the JSON folded away", async () => {
    await user.goto(`${base}/dashboard/events`);
    const headlines = await user.locator(".event-headline").allTextContents();
    expect(headlines).toContainEqual(expect.stringMatching(/^API key wbk_[0-9a-f]{8}… created\.$/));
    expect(await user.locator("details code").first().isVisible()).toBe(false);
    expect(await user.locator("#event-feed").innerText()).not.toContain('{"key_id"');
  }, 30_000);

  test("an action posted without the CSRF token changes nothing", async () => {
    const userId = /acct_[0-9A-Z]+/.exec(
      (await (async () => {
        await admin.goto(`${base}/dashboard/admin`);
        return admin.locator("tr", { hasText: USER.email }).innerHTML();
      })()) ?? "",
    )?.[0];
    const forged = await admin.request.post(`${base}/dashboard/admin/accounts/${userId}/revoke-key`, {
      form: { nothing: "here" },
      headers: { origin: base },
    });
    expect(forged.status()).toBe(403);
    expect((await callApi(userKey)).status).toBe(200);
  }, 30_000);

  test("revoke key: confirmed, and the key is refused on its next call", async () => {
    await adminAction("Revoke key");
    expect(await admin.locator(".notice").innerText()).toContain("is revoked");
    const refused = await callApi(userKey);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe("REVOKED_API_KEY");
  }, 30_000);

  test("reset password: the old one stops working, the owner's session ends, the shown link sets a new one", async () => {
    await user.goto(`${base}/dashboard`);
    expect(user.url()).toBe(`${base}/dashboard`);
    await adminAction("Reset password");
    const link = (await admin.locator("#password-link").innerText()).trim();
    expect(link.startsWith(`${base}/password/`)).toBe(true);

    await user.goto(`${base}/dashboard`);
    expect(user.url()).toContain("/signin");
    await signIn(user, USER.email, USER.first);
    expect(user.url()).toContain("/signin");
    await setPasswordThrough(link, USER.second);
  }, 60_000);

  test("disable: the owner is signed out and cannot sign in or get a key; enable brings the account back", async () => {
    await adminAction("Disable");
    expect(await admin.locator(".notice").innerText()).toContain("is disabled");
    expect(await admin.locator("tr", { hasText: USER.email }).locator(".badge.warn").innerText()).toBe("disabled");

    await user.goto(`${base}/dashboard`);
    expect(user.url()).toContain("/signin");
    await signIn(user, USER.email, USER.second);
    expect(user.url()).toContain("/signin");
    const key = cli(["keys", "create", "--email", USER.email]);
    expect(key.exitCode).not.toBe(0);
    expect(key.stderr + key.stdout).toContain("disabled");

    await adminAction("Enable");
    expect(await admin.locator(".notice").innerText()).toContain("is enabled");
  }, 60_000);

  test("setup, links and every admin action are in the account audit log", async () => {
    await admin.goto(`${base}/dashboard/admin/audit`);
    const log = await admin.locator("main").innerText();
    for (const entry of [
      "account created",
      "first-start setup link",
      "password link issued",
      "password changed",
      "key revoked",
      "password reset",
      "account disabled",
      "account enabled",
    ])
      expect(log).toContain(entry);
    // The refused sign-ins above are answered 401 on purpose; anything else (CSP, script errors) is a defect.
    expect(problems.filter((problem) => !/\/signin: .* status of 401/.test(problem))).toEqual([]);
  }, 30_000);
});
