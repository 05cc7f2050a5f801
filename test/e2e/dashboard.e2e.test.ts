import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CHROMIUM, chromiumAvailable, launchChromium, endBrowserSuite, signIn } from "../support/browser.ts";
import { binaryInEmptyFolder, runCli, startBinary, type RunningServer } from "../support/binary.ts";
import { defined } from "../support/defined.ts";

const AXE_SOURCE = join(import.meta.dir, "../../node_modules/axe-core/axe.min.js");
const SHOTS = join(import.meta.dir, "../../test-results/dashboard");
const ADMIN = { email: "ops@example.com", password: "a long admin passphrase" };
// Passes the email shape check, so an account really can carry it.
const HOSTILE = { email: '"><img/src=x/onerror=alert(1)>@x.io', password: "hostile but valid" };
const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

// The test script installs Chromium when missing; try the same here, and skip only if that fails too.
const haveChromium = chromiumAvailable();
if (!haveChromium)
  console.warn(
    `SKIPPING the dashboard browser suite: ${CHROMIUM} is absent and apt-get could not install Debian's chromium.`,
  );

describe.skipIf(!haveChromium)(
  "the dashboard in a real Chromium against the compiled binary on a loopback port",
  () => {
    let dir: string;
    let exe: string;
    let server: RunningServer;
    let base: string;
    let browser: Browser;
    let desktop: BrowserContext;
    let page: Page;
    const problems: string[] = [];
    let apiKey = "";

    const cli = (...args: string[]) => runCli(exe, [...args, "--db", "waybill.db"], dir);
    /** The row `what` names, read-only from the server's database file (WAL lets a reader in beside the running writer). */
    function storedRow<T>(what: string, sql: string, ...params: string[]): T {
      const db = new Database(join(dir, "waybill.db"), { readonly: true });
      try {
        return defined(db.query<T, string[]>(sql).get(...params), what);
      } finally {
        db.close();
      }
    }
    const accountRow = (email: string) =>
      storedRow<{ id: string; tier: string; is_admin: number }>(
        `the account of ${email}`,
        "SELECT id, tier, is_admin FROM accounts WHERE email = ?",
        email.toLowerCase(),
      );

    async function shoot(target: Page, name: string) {
      await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    }
    function watch(target: Page) {
      // CSP violations and script errors show up here; a clean dashboard produces none.
      target.on("console", (message) => {
        if (message.type() === "error") problems.push(`${target.url()}: ${message.text()}`);
      });
      target.on("pageerror", (error) => problems.push(`${target.url()}: ${error.message}`));
      target.on("dialog", (dialog) => {
        problems.push(`dialog opened: ${dialog.message()}`);
        void dialog.dismiss();
      });
    }
    function callApi(key: string) {
      return fetch(`${base}/v1/rates/lookup`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(LANE),
      });
    }
    async function plainSignIn(context: BrowserContext, who: { email: string; password: string }): Promise<Page> {
      const plain = await context.newPage();
      await signIn(plain, base, who);
      return plain;
    }

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      ({ dir, exe } = await binaryInEmptyFolder());
      server = await startBinary(exe, ["--db", "waybill.db"], { cwd: dir });
      base = server.url;
      browser = await launchChromium();
      desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      page = await desktop.newPage();
      watch(page);
    }, 240_000);

    afterAll(() => endBrowserSuite({ browser, server, dir }));

    test("the one-time setup URL creates the admin, and is dead afterwards", async () => {
      const [, setupUrl] = /open (http:\/\/\S+\/setup\/\S+) once/.exec(server.output()) ?? [];
      if (setupUrl === undefined) throw new Error("expected the server to print the setup URL");
      await page.goto(setupUrl);
      await shoot(page, "setup-desktop");
      await page.fill("input[name=email]", ADMIN.email);
      await page.fill("input[name=password]", ADMIN.password);
      await page.fill("input[name=password_again]", ADMIN.password);
      await page.click("button[type=submit]");
      await page.waitForURL(`${base}/dashboard`);
      expect(accountRow(ADMIN.email).is_admin).toBe(1);
      const again = await fetch(setupUrl);
      expect(again.status).toBe(404);
    }, 30_000);

    test("any account holder's overview shows how current the diesel, wage and USDA figures are, and what is overdue", async () => {
      const holder = { email: "dispatch@example.com", password: "a plain user passphrase" };
      const created = runCli(
        exe,
        ["accounts", "create", "--email", holder.email, "--password-stdin", "--db", "waybill.db"],
        dir,
        holder.password,
      );
      expect(created.exitCode).toBe(0);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const own = await plainSignIn(context, holder);
      const panel = own.locator("#data-freshness");
      const rows = async () =>
        (await panel.locator("tbody tr").allTextContents()).map((text) => text.replace(/\s+/g, " ").trim());
      const before = await rows();
      expect(before[0]).toMatch(/^Diesel prices \(EIA, weekly\)week of 2026-\d\d-\d\d/);
      expect(before[1]).toMatch(/^Driver wages \(BLS OEWS, annual\)May 20\d\d edition/);
      expect(before[2]).toMatch(/^Reefer market rates \(USDA FVWTRK, weekly\)week of 2026-\d\d-\d\d/);
      // The embedded diesel weeks are behind the calendar this test runs in.
      expect(before[0]).toMatch(/overdue: \d+ of 11 series behind schedule since 20\d\d-\d\d-\d\d$/);
      await shoot(own, "overview-freshness-desktop");

      // An operator imports this week's national price: the holder's overview shows the new week.
      const monday = new Date(Date.now() - ((new Date().getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
      const [y, m, d] = monday.split("-");
      const csv = join(dir, "diesel-week.csv");
      await Bun.write(
        csv,
        `"Weekly U.S. No 2 Diesel Retail Prices"\n"Link","https://www.eia.gov/dnav/pet/hist/LeafHandler.ashx?n=PET&s=EMD_EPD2D_PTE_NUS_DPG&f=W"\n"Week of","Price"\n"${m}/${d}/${y}","3.712"\n`,
      );
      expect(runCli(exe, ["data", "import", "eia", csv, "--db", "waybill.db"], dir).exitCode).toBe(0);
      let after = before;
      for (let i = 0; i < 50 && after[0] === before[0]; i++) {
        await Bun.sleep(100);
        await own.reload();
        after = await rows();
      }
      expect(after[0]).toContain(`week of ${monday}`);
      await context.close();
    }, 60_000);

    test("the admin lists accounts, sees hostile data escaped, and changes a tier without a reload", async () => {
      expect(
        runCli(
          exe,
          ["accounts", "create", "--email", HOSTILE.email, "--password-stdin", "--db", "waybill.db"],
          dir,
          HOSTILE.password,
        ).exitCode,
      ).toBe(0);
      await page.goto(`${base}/dashboard/admin`);
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
      expect(await page.locator("img[src=x]").count()).toBe(0);
      await expect(page.locator("table.accounts").textContent()).resolves.toContain(HOSTILE.email);

      const adminId = accountRow(ADMIN.email).id;
      const row = page.locator(`#account-${adminId}`);
      await row.locator("select").selectOption("professional");
      await row.locator("button[type=submit]").click();
      await expect(row.locator(".badge.ok").textContent()).resolves.toContain("saved");
      expect(accountRow(ADMIN.email).tier).toBe("professional");
      // the same document: htmx swapped the row, the page did not reload
      expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
      await shoot(page, "admin-desktop");
    }, 30_000);

    test("create a scoped key: shown once, with a copy button, through an htmx swap", async () => {
      await page.goto(`${base}/dashboard/keys`);
      await page.check("input[name=scopes][value=rate-lookup]");
      await page.check("input[name=scopes][value=audit-report]");
      await page.click("#key-panel form[action='/dashboard/keys'] button[type=submit]");
      const secret = page.locator("#new-key-value");
      await secret.waitFor();
      apiKey = (await secret.textContent())?.trim() ?? "";
      expect(apiKey).toMatch(/^wbk_[0-9a-f]{64}$/);
      expect(await page.locator('[data-copy-from="#new-key-value"]').isVisible()).toBe(true);
      expect(page.url()).toBe(`${base}/dashboard/keys`);
      await shoot(page, "keys-new-key-desktop");
    }, 30_000);

    test("the key works against the API; after a reload it is not shown again, only its display id and last use", async () => {
      const answer = await callApi(apiKey);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { receipt_id: string };
      expect(body.receipt_id).toMatch(/^rcpt_/);

      await page.reload();
      const html = await page.content();
      expect(html).not.toContain(apiKey);
      await expect(page.locator(".key-id").textContent()).resolves.toBe(`${apiKey.slice(0, 12)}…`);
      await expect(page.locator("dl.facts").textContent()).resolves.toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      expect(await page.locator("dl.facts dd").nth(3).textContent()).not.toBe("never");
      await shoot(page, "keys-desktop");
    }, 30_000);

    test("usage shows the chart, the recent call, and the receipt viewer shows the audit provenance", async () => {
      await page.goto(`${base}/dashboard/usage`);
      await page.locator("#daily-calls-chart .uplot canvas").waitFor();
      const firstRow = page.locator("table tbody tr").last();
      await expect(
        page.locator("section:has(h2:text('Recent calls')) tbody tr").first().textContent(),
      ).resolves.toContain("rate-lookup");
      expect(await firstRow.count()).toBe(1);
      await shoot(page, "usage-desktop");
      const receiptLink = page.locator("section:has(h2:text('Recent calls')) a[href^='/dashboard/receipts/']").first();
      // The month's CSV lists the answered call from its receipt row (answered calls write no usage row).
      const receiptId = defined((await receiptLink.getAttribute("href"))?.split("/").pop(), "the receipt link's id");
      const csv = await page.request.get(`${base}/dashboard/usage.csv`);
      expect(csv.status()).toBe(200);
      const answeredRow = (await csv.text()).split("\r\n").find((line) => line.endsWith(`,${receiptId}`));
      expect(answeredRow?.split(",").slice(2, 5)).toEqual(["rate-lookup", "answered", "200"]);
      await receiptLink.click();
      await page.waitForURL(/\/dashboard\/receipts\/rcpt_/);
      await expect(page.locator("ul.checks").textContent()).resolves.toContain("Included in the signed log checkpoint");
      expect(await page.locator("ul.checks .badge.bad").count()).toBe(0);
      await expect(page.locator("details summary").last().textContent()).resolves.toBe(
        "Answer (re-computed; matches the signed digest)",
      );
      await shoot(page, "receipt-desktop");
    }, 30_000);

    test("revoke asks first, then the API refuses the key with 401 REVOKED_API_KEY", async () => {
      await page.goto(`${base}/dashboard/keys`);
      await page.click("text=Revoke…");
      const confirm = page.locator("form.confirm");
      await confirm.waitFor();
      await shoot(page, "keys-confirm-revoke-desktop");
      await confirm.locator("button[type=submit]").click();
      await expect(page.locator("#key-panel .notice").textContent()).resolves.toContain("is revoked");
      const refused = await callApi(apiKey);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: string }).error).toBe("REVOKED_API_KEY");
    }, 30_000);

    test("phone width: every page stays readable (no horizontal overflow of the page)", async () => {
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      const cookies = await desktop.cookies();
      await phone.addCookies(cookies);
      const small = await phone.newPage();
      watch(small);
      for (const [path, name] of [
        ["/dashboard", "overview-phone"],
        ["/dashboard/keys", "keys-phone"],
        ["/dashboard/usage", "usage-phone"],
        ["/dashboard/admin", "admin-phone"],
      ] as const) {
        await small.goto(base + path);
        if (path === "/dashboard/usage") await small.locator("#daily-calls-chart .uplot canvas").waitFor();
        const overflow = await small.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await shoot(small, name);
      }
      await page.goto(`${base}/dashboard`);
      await shoot(page, "overview-desktop");
      await phone.close();
    }, 60_000);

    test("the hostile account signs in: its email is text everywhere, never markup", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const hostilePage = await context.newPage();
      watch(hostilePage);
      await hostilePage.goto(`${base}/signin`);
      await shoot(hostilePage, "signin-desktop");
      await hostilePage.fill("input[name=email]", HOSTILE.email);
      await hostilePage.fill("input[name=password]", HOSTILE.password);
      await hostilePage.click("button[type=submit]");
      await hostilePage.waitForURL(`${base}/dashboard`);
      for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/usage"]) {
        await hostilePage.goto(base + path);
        await expect(hostilePage.locator(".who .email").textContent()).resolves.toBe(HOSTILE.email.toLowerCase());
        expect(await hostilePage.locator("img[src=x]").count()).toBe(0);
      }

      // an explorer account's receipt: the viewer explains why there is no provenance and where to look
      const issued = cli("keys", "create", "--email", HOSTILE.email, "--json");
      expect(issued.exitCode).toBe(0);
      const answer = await callApi(JSON.parse(issued.stdout).key);
      const { receipt_id } = (await answer.json()) as { receipt_id: string };
      await hostilePage.goto(`${base}/dashboard/receipts/${receipt_id}`);
      await expect(hostilePage.locator(".locked").textContent()).resolves.toContain("starts at the Professional tier");
      expect(await hostilePage.locator(".locked a[href='/pricing']").count()).toBe(1);
      await shoot(hostilePage, "receipt-locked-desktop");
      // someone else's receipt is the same 404 as a missing one
      const adminsReceipt = storedRow<{ id: string }>(
        "a receipt of the admin's",
        "SELECT id FROM receipts WHERE account_id = ?",
        accountRow(ADMIN.email).id,
      );
      const foreign = await context.request.get(`${base}/dashboard/receipts/${adminsReceipt.id}`);
      expect(foreign.status()).toBe(404);
      await context.close();
    }, 30_000);

    test("without JavaScript every form works: sign in, create a key, revoke it, change a tier, sign out", async () => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
      const plain = await plainSignIn(context, ADMIN);
      await plain.goto(`${base}/dashboard/keys`);
      await plain.check("input[name=scopes][value=rate-lookup]");
      await plain.click("#key-panel form[action='/dashboard/keys'] button[type=submit]");
      await plain.waitForURL(`${base}/dashboard/keys`);
      const key = (await plain.locator("#new-key-value").textContent())?.trim() ?? "";
      expect(key).toMatch(/^wbk_[0-9a-f]{64}$/);
      expect((await callApi(key)).status).toBe(200);

      await plain.goto(`${base}/dashboard/keys?confirm=revoke`);
      const revoked = await Promise.all([
        plain.waitForNavigation(),
        plain.locator("form.confirm button[type=submit]").click(),
      ]);
      expect(revoked[0]?.status()).toBe(200);
      await expect(plain.locator("#key-panel .notice").textContent()).resolves.toContain("is revoked");
      expect((await callApi(key)).status).toBe(401);

      const hostileId = accountRow(HOSTILE.email).id;
      await plain.goto(`${base}/dashboard/admin`);
      await plain.locator(`#account-${hostileId} select`).selectOption("starter");
      const saved = await Promise.all([
        plain.waitForNavigation(),
        plain.locator(`#account-${hostileId} button[type=submit]`).click(),
      ]);
      expect(saved[0]?.status()).toBe(200);
      expect(accountRow(HOSTILE.email).tier).toBe("starter");

      const out = await Promise.all([
        plain.waitForNavigation(),
        plain.locator("header form[action='/signout'] button").click(),
      ]);
      expect(out[0]?.url()).toBe(`${base}/signin?signed_out`);
      await plain.goto(`${base}/dashboard`);
      expect(plain.url()).toStartWith(`${base}/signin`);
      await context.close();
    }, 60_000);

    test("with JavaScript, signing out ends the session", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const signedIn = await plainSignIn(context, ADMIN);
      watch(signedIn);
      await Promise.all([
        signedIn.waitForURL(`${base}/signin?signed_out`),
        signedIn.locator("header form[action='/signout'] button").click(),
      ]);
      await signedIn.goto(`${base}/dashboard/keys`);
      expect(signedIn.url()).toStartWith(`${base}/signin`);
      await context.close();
    }, 30_000);

    test("the change-password page: the header link, the form, and the new password signs in", async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const signedIn = await plainSignIn(context, HOSTILE);
      watch(signedIn);
      await Promise.all([
        signedIn.waitForURL(`${base}/dashboard/password`),
        signedIn.locator("header a[href='/dashboard/password']").click(),
      ]);
      await signedIn.fill("input[name=current_password]", HOSTILE.password);
      await signedIn.fill("input[name=password]", "a changed hostile passphrase");
      await signedIn.fill("input[name=password_again]", "a changed hostile passphrase");
      await Promise.all([
        signedIn.waitForURL(`${base}/dashboard/password?changed`),
        signedIn.locator("main button[type=submit]").click(),
      ]);
      await expect(signedIn.locator("main .notice").textContent()).resolves.toContain("changed");
      await shoot(signedIn, "password-desktop");
      await context.close();
      const again = await browser.newContext();
      await plainSignIn(again, { email: HOSTILE.email, password: "a changed hostile passphrase" });
      await again.close();
    }, 60_000);

    test("axe-core finds nothing serious or critical on any page", async () => {
      const ownReceipt = storedRow<{ id: string }>(
        "a receipt of the admin's",
        "SELECT id FROM receipts WHERE account_id = ?",
        accountRow(ADMIN.email).id,
      );
      const hostileAccount = accountRow(HOSTILE.email);
      const signedIn = [
        "/dashboard",
        "/dashboard/keys",
        "/dashboard/usage",
        "/dashboard/password",
        `/dashboard/receipts/${ownReceipt.id}`,
        "/dashboard/receipts/rcpt_01ARZ3NDEKTSV4RRFFQ69G5FAV",
        "/dashboard/admin",
        `/dashboard/admin/accounts/${hostileAccount.id}`,
        "/dashboard/no-such-page",
        "/pricing",
      ];
      const signedOut = ["/signin", "/pricing", "/setup/not-a-token"];
      // The pages forbid inline script; this context lets the axe-core bundle in, and only this one.
      const audited = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
      const anonymous = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } });
      await audited.addCookies(await desktop.cookies());
      const findings: string[] = [];
      for (const [context, paths] of [
        [audited, signedIn],
        [anonymous, signedOut],
      ] as const) {
        const target = await context.newPage();
        for (const path of paths) {
          await target.goto(base + path);
          await target.addScriptTag({ path: AXE_SOURCE });
          const violations = await target.evaluate(async () => {
            const axe = (
              window as unknown as {
                axe: {
                  run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
                };
              }
            ).axe;
            return (await axe.run()).violations.map((v) => ({
              id: v.id,
              impact: v.impact,
              where: v.nodes.map((n) => n.target.join(" ")).slice(0, 3),
            }));
          });
          for (const v of violations)
            if (v.impact === "serious" || v.impact === "critical")
              findings.push(`${path}: ${v.impact} ${v.id} at ${v.where.join(", ")}`);
        }
      }
      await audited.close();
      await anonymous.close();
      expect(findings).toEqual([]);
    }, 120_000);

    test("no script error, CSP violation or dialog happened on any page", () => {
      expect(problems).toEqual([]);
    });
  },
);
