import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { chromiumAvailable, launchChromium, endBrowserSuite, signIn } from "../support/browser.ts";
import { seriousAxeViolations } from "../support/axe.ts";
import { binaryInEmptyFolder, runCli, startBinary, type RunningServer } from "../support/binary.ts";
import { defined } from "../support/defined.ts";

const SHOTS = join(import.meta.dir, "../../.tmp/screenshots");
const PHONE = { width: 390, height: 844 };
const ADMIN = { email: "pricing.desk.lead@example.com", password: "a long admin passphrase" };
const CUSTOMER = "a.customer.with.a.rather.long.address@shipper-logistics-example.com";

const haveChromium = chromiumAvailable();

/** A bid sheet with long cells and bad rows, so its tables are as wide as an analyst's would be. */
const SHEET = [
  "RFP line,Customer lane reference,origin,destination,equipment,include fuel surcharge",
  '1,CHI-DAL-2027-Q1-DRYVAN-PRIMARY,"Chicago, IL","Dallas, TX",dry van,yes',
  '2,ATL-MEM-2027-Q1-REEFER-BACKUP,"Atlanta, GA","Memphis, TN",reefer,no',
  '3,NOWHERE-2027-Q1,"Qqxzzv, ZZ","Dallas, TX",DRY_VAN,',
  '4,SPACE-2027-Q1,"Fresno, CA","Chicago, IL",SPACESHIP,',
].join("\n");

/** What the page shows beyond the phone's width: the document's own overflow and any element outside it not inside a scrolling box that fits. */
interface Overflow {
  scrollWidth: number;
  width: number;
  /** The root or body hides what overflows (that would hide the problem, not fix it). */
  clipped: boolean;
  outside: string[];
}

function measureOverflow(): Overflow {
  const width = document.documentElement.clientWidth;
  const scrolls = (element: Element) => ["auto", "scroll"].includes(getComputedStyle(element).overflowX);
  const name = (element: Element) =>
    element.tagName.toLowerCase() +
    (element.id ? `#${element.id}` : "") +
    Array.from(element.classList, (name) => `.${name}`).join("");
  /** Inside a box that scrolls sideways and itself fits: a wide table may scroll there. */
  const contained = (node: Node) => {
    let container = node.parentElement;
    while (container && container !== document.body && !scrolls(container)) container = container.parentElement;
    return Boolean(container && container !== document.body && container.getBoundingClientRect().right <= width + 0.5);
  };
  const outside: string[] = [];
  for (const element of Array.from(document.body.querySelectorAll("*"))) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5 || contained(element)) continue;
    outside.push(`${name(element)} (right edge ${Math.round(box.right)} px)`);
  }
  // Text can run past the box that holds it (a long word that does not wrap).
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(text);
    const box = range.getBoundingClientRect();
    const holder = text.parentElement;
    if (!holder || box.width === 0 || box.right <= width + 0.5 || contained(text)) continue;
    outside.push(
      `text "${(text.textContent ?? "").trim().slice(0, 40)}" in ${name(holder)} (right edge ${Math.round(box.right)} px)`,
    );
  }
  const hides = (element: Element) => ["hidden", "clip"].includes(getComputedStyle(element).overflowX);
  return {
    scrollWidth: document.documentElement.scrollWidth,
    width,
    clipped: hides(document.documentElement) || hides(document.body),
    outside: outside.slice(0, 8),
  };
}

/**
 * Every page of the dashboard at a 390 px phone width, signed in as an admin with data in every
 * table: the page itself never scrolls sideways (a wide table scrolls inside its own box), axe-core
 * finds no serious or critical violation in the light or the dark scheme, and each page is saved as
 * a phone screenshot in .tmp/screenshots.
 */
describe.skipIf(!haveChromium)("every dashboard page on a 390 px phone (compiled binary, Chromium)", () => {
  let dir: string;
  let exe: string;
  let server: RunningServer;
  let browser: Browser;
  let phone: BrowserContext;
  let page: Page;
  let passwordLink = "";
  const problems: string[] = [];

  const cli = (args: string[], stdin?: string) => runCli(exe, [...args, "--db", "waybill.db"], dir, stdin);
  function stored<T>(what: string, sql: string, ...params: string[]): T {
    const db = new Database(join(dir, "waybill.db"), { readonly: true });
    try {
      return defined(db.query<T, string[]>(sql).get(...params), what);
    } finally {
      db.close();
    }
  }

  /** The page as it stands: overflow, axe in both schemes, and its screenshot. */
  async function check(name: string): Promise<string[]> {
    const found: string[] = [];
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const overflow = await page.evaluate(measureOverflow);
      if (overflow.clipped) found.push(`${name} (${scheme}): the page hides its sideways overflow`);
      if (overflow.scrollWidth > overflow.width || overflow.outside.length > 0)
        found.push(
          `${name} (${scheme}): ${overflow.scrollWidth} px wide in ${overflow.width} px; outside: ${overflow.outside.join(", ")}`,
        );
      for (const violation of await seriousAxeViolations(page)) found.push(`${name} (${scheme}): ${violation}`);
      await page.screenshot({
        path: join(SHOTS, `phone-${name}${scheme === "dark" ? "-dark" : ""}.png`),
        fullPage: true,
      });
    }
    await page.emulateMedia({ colorScheme: "light" });
    return found;
  }

  async function visit(path: string): Promise<void> {
    const response = await page.goto(server.url + path);
    if (!response) throw new Error(`no response for ${path}`);
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ({ dir, exe } = await binaryInEmptyFolder());
    const admin = [
      "accounts",
      "create",
      "--email",
      ADMIN.email,
      "--tier",
      "professional",
      "--admin",
      "--password-stdin",
    ];
    expect(cli(admin, ADMIN.password).exitCode).toBe(0);
    const customer = cli(["accounts", "create", "--email", CUSTOMER, "--tier", "starter"]);
    expect(customer.exitCode).toBe(0);
    passwordLink = defined(/(\/password\/\S+)/.exec(customer.stdout)?.[1], "the customer's one-time password link");
    const key = cli(["keys", "create", "--email", ADMIN.email]);
    expect(key.exitCode).toBe(0);
    const apiKey = defined(/(wbk_\S+)/.exec(key.stdout)?.[1], "the admin's key");
    server = await startBinary(exe, ["--db", "waybill.db", "--allow-private-webhooks"], { cwd: dir });

    // Usage, refusals and receipts from the API, and a bid sheet with bad rows, priced to the end.
    const call = (path: string, init: RequestInit) =>
      fetch(server.url + path, {
        ...init,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...init.headers },
      });
    for (const destination of ["Dallas, TX", "Memphis, TN", "Denver, CO", "Nowhere, ZZ"])
      await call("/v1/rates/lookup", {
        method: "POST",
        body: JSON.stringify({ origin: "Chicago, IL", destination, equipment: "DRY_VAN" }),
      });
    const submitted = await call("/v1/rates/batch", {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: SHEET,
    });
    expect(submitted.status).toBe(202);
    const { status_url } = (await submitted.json()) as { status_url: string };
    for (let tries = 0; tries < 100; tries++) {
      const status = (await (await call(status_url, {})).json()) as { status: string };
      if (status.status === "done") break;
      await Bun.sleep(100);
    }

    browser = await launchChromium();
    phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    page = await phone.newPage();
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  }, 240_000);

  afterAll(() => endBrowserSuite({ browser, server, dir }));

  test("signed out: sign-in, pricing, the password link, dead links", async () => {
    const found: string[] = [];
    for (const [name, path] of [
      ["signin", "/signin"],
      ["pricing", "/pricing"],
      ["set-password", passwordLink],
      ["setup-dead-link", "/setup/not-a-token"],
    ] as const) {
      await visit(path);
      found.push(...(await check(name)));
    }
    expect(found).toEqual([]);
  }, 120_000);

  test("signed in as an admin: every page, with rows in its tables", async () => {
    await signIn(page, server.url, ADMIN);

    // Rows for the alerts and webhooks tables, made as a user would.
    await visit("/dashboard/alerts");
    await page.fill("input[name=name]", "National diesel above nine dollars a gallon");
    await page.selectOption("select[name=metric]", "diesel_price");
    await page.selectOption("select[name=region]", "NATIONAL");
    await page.selectOption("select[name=direction]", "ABOVE");
    await page.fill("input[name=threshold]", "9");
    await page.click("#create-alert button[type=submit]");
    await visit("/dashboard/webhooks");
    await page.fill("input[name=url]", "http://127.0.0.1:9/hooks/waybill/alerts/a-rather-long-endpoint-path");
    await page.click("#create-webhook button[type=submit]");
    await visit("/dashboard/webhooks");
    await page.click("button:has-text('Send test event')");

    const customerId = stored<{ id: string }>("the customer", "SELECT id FROM accounts WHERE email = ?", CUSTOMER).id;
    const sheetId = stored<{ id: string }>("the sheet", "SELECT id FROM batch_jobs").id;
    const found: string[] = [];
    const walk: [string, string][] = [
      ["overview", "/dashboard"],
      ["keys", "/dashboard/keys"],
      ["usage", "/dashboard/usage"],
      ["events", "/dashboard/events"],
      ["alerts", "/dashboard/alerts"],
      ["webhooks", "/dashboard/webhooks"],
      ["lane", "/dashboard/lane"],
      ["lane-priced", "/dashboard/lane?origin=Chicago%2C+IL&destination=Dallas%2C+TX&equipment=DRY_VAN"],
      ["sheets", "/dashboard/sheets"],
      ["sheet", `/dashboard/sheets/${sheetId}`],
      ["account-password", "/dashboard/password"],
      ["admin-accounts", "/dashboard/admin"],
      ["admin-account", `/dashboard/admin/accounts/${customerId}`],
      ["admin-confirm", `/dashboard/admin/accounts/${customerId}/confirm/password-reset`],
    ];
    for (const [name, path] of walk) {
      await visit(path);
      found.push(...(await check(name)));
    }
    // The lane's receipt, as the priced lane links it.
    await visit(walk[7]?.[1] ?? "");
    await page.click(".confirmation a[href^='/dashboard/receipts/']");
    await page.waitForURL(/\/dashboard\/receipts\/rcpt_/);
    found.push(...(await check("receipt")));
    // The admin's confirmed password reset shows the one-time link; the audit log then has rows.
    await visit(`/dashboard/admin/accounts/${customerId}/confirm/password-reset`);
    await page.click("main form button[type=submit]");
    await page.waitForLoadState();
    found.push(...(await check("admin-password-link")));
    await visit("/dashboard/admin/audit");
    found.push(...(await check("admin-audit")));
    await visit("/dashboard/no-such-page");
    found.push(...(await check("not-found")));
    // Last, as it replaces the key: the new key's card with its first call to copy.
    await visit("/dashboard/keys");
    await page.click("#key-panel form[action='/dashboard/keys'] button[type=submit]");
    await page.locator("#new-key-value").waitFor();
    found.push(...(await check("keys-new-key")));
    expect(found).toEqual([]);
  }, 240_000);

  test("no script error on any page", () => {
    expect(problems).toEqual([]);
  });
});
