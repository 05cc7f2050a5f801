import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ExcelJS from "exceljs";
import Papa from "papaparse";
import type { Browser, Page } from "playwright-core";
import { chromiumAvailable, launchChromium, endBrowserSuite, signIn } from "../support/browser.ts";
import { binaryInEmptyFolder, runCli, startBinary, type RunningServer } from "../support/binary.ts";
import { seriousAxeViolations } from "../support/axe.ts";

const SHOTS = join(import.meta.dir, "../../.tmp/screenshots");
const ANALYST = { email: "analyst@example.com", password: "a long analyst passphrase" };
const PHONE = { width: 390, height: 844 };

const haveChromium = chromiumAvailable();

/** A bid sheet an analyst would upload: their own reference column, two lanes that price and two that cannot. */
const SHEET = [
  "RFP line,Origin,Destination,Equipment",
  '1,"Chicago, IL","Dallas, TX",Dry van',
  '2,"Qqxzzv, ZZ","Dallas, TX",DRY_VAN',
  '3,"Fresno, CA","Chicago, IL",reefer',
  '4,"Atlanta, GA","Memphis, TN",SPACESHIP',
].join("\n");

describe.skipIf(!haveChromium)("the analyst's pages in Chromium against the compiled binary", () => {
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  async function shoot(target: Page, name: string) {
    await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    let exe: string;
    ({ dir, exe } = await binaryInEmptyFolder());
    const created = runCli(
      exe,
      ["accounts", "create", "--email", ANALYST.email, "--tier", "starter", "--password-stdin", "--db", "waybill.db"],
      dir,
      ANALYST.password,
    );
    expect(created.exitCode).toBe(0);
    expect(runCli(exe, ["keys", "create", "--email", ANALYST.email, "--db", "waybill.db"], dir).exitCode).toBe(0);
    server = await startBinary(exe, ["--db", "waybill.db"], { cwd: dir });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
    await signIn(page, server.url, ANALYST);
  }, 240_000);

  afterAll(() => endBrowserSuite({ browser, server, dir }));

  test("price a lane: suggestions, the route on the map, the costs, the history, then the receipt", async () => {
    await page.click("nav >> text=Price a lane");
    await page.waitForURL(`${server.url}/dashboard/lane`);
    await page.fill("#origin", "Chicag");
    await page.locator("#origin-places option[value='Chicago, IL']").waitFor({ state: "attached" });
    await page.fill("#origin", "Chicago, IL");
    await page.fill("#destination", "Dallas, TX");
    await page.selectOption("#equipment", { label: "Dry van" });
    await page.click("form.lane-form button[type=submit]");
    await page.locator(".route-map path.route").waitFor();
    expect(await page.locator(".route-map path.states").getAttribute("d")).toMatch(/^M/);
    await page.locator("#lane-history-chart .uplot canvas").waitFor();
    await expect(page.locator(".figures").textContent()).resolves.toMatch(/Cost per mile\$\d+\.\d\d/);
    await expect(page.locator(".locked").textContent()).resolves.toContain("professional");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "lane-desktop");
    await page.setViewportSize(PHONE);
    await shoot(page, "lane-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    // The system's dark setting: the same page in the dark scheme, still without serious axe findings.
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "lane-dark-desktop");
    await page.emulateMedia({ colorScheme: "light" });
    await page.emulateMedia({ media: "print" });
    await shoot(page, "lane-print");
    await page.emulateMedia({ media: "screen" });

    await page.click(".confirmation a[href^='/dashboard/receipts/']");
    await page.waitForURL(/\/dashboard\/receipts\/rcpt_/);
    // The receipt is the lane's own rate-lookup; a starter account sees it without the audit provenance.
    await expect(page.locator("dl").first().textContent()).resolves.toContain("rate-lookup");
    await shoot(page, "lane-receipt-desktop");
  }, 60_000);

  test("price a bid sheet: upload with bad rows, watch it settle, download and read the priced file", async () => {
    await page.goto(`${server.url}/dashboard/sheets`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    const file = join(dir, "rfp.csv");
    await Bun.write(file, SHEET);
    await page.setInputFiles("#sheet-file", file);
    await page.click("#upload button[type=submit]");
    await page.waitForURL(/\/dashboard\/sheets\/job_/);
    await page.locator("#progress").waitFor();
    await expect(page.locator("#sheet-status").textContent()).resolves.toMatch(/Waiting to start|Pricing|Priced/);
    await page.locator("#sheet-status:text('Priced')").waitFor({ timeout: 30_000 });
    await expect(page.locator("#progress label").textContent()).resolves.toBe("4 of 4 lanes settled");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, "sheet-desktop");
    await page.setViewportSize(PHONE);
    await shoot(page, "sheet-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#progress a:text('CSV')")]);
    const saved = join(dir, "priced.csv");
    await download.saveAs(saved);
    const rows = Papa.parse<Record<string, string>>(readFileSync(saved, "utf8"), { header: true }).data;
    expect(rows.map((row) => row["RFP line"])).toEqual(["1", "2", "3", "4"]);
    expect(rows[0]?.receipt_id).toMatch(/^rcpt_/);
    expect(Number(rows[0]?.rate_per_mile)).toBeGreaterThan(0);
    expect(rows[1]?.error).toBe("UNRESOLVED_LOCATION");
    expect(rows[2]?.receipt_id).toMatch(/^rcpt_/);
    expect(rows[3]).toMatchObject({ error: "INVALID_REQUEST", receipt_id: "" });

    // The list keeps it, and an XLSX sheet comes back as XLSX.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Lanes");
    sheet.addRow(["origin", "destination", "equipment", "note"]);
    sheet.addRow(["Chicago, IL", "Dallas, TX", "DRY_VAN", "x"]);
    const xlsx = join(dir, "rfp.xlsx");
    await workbook.xlsx.writeFile(xlsx);
    await page.goto(`${server.url}/dashboard/sheets`);
    await page.setInputFiles("#sheet-file", xlsx);
    await page.click("#upload button[type=submit]");
    await page.waitForURL(/\/dashboard\/sheets\/job_/);
    await page.locator("#sheet-status:text('Priced')").waitFor({ timeout: 30_000 });
    const [xlsxDownload] = await Promise.all([page.waitForEvent("download"), page.click("#progress a:text('XLSX')")]);
    const pricedXlsx = join(dir, "priced.xlsx");
    await xlsxDownload.saveAs(pricedXlsx);
    const priced = new ExcelJS.Workbook();
    await priced.xlsx.readFile(pricedXlsx);
    const header = priced.worksheets[0]?.getRow(1).values as unknown[];
    expect(header).toContain("note");
    expect(header).toContain("receipt_id");
    await page.goto(`${server.url}/dashboard/sheets`);
    await expect(page.locator("table").textContent()).resolves.toContain("rfp.csv");
    await shoot(page, "sheets-list-desktop");
    await page.setViewportSize(PHONE);
    await shoot(page, "sheets-list-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
  }, 90_000);
});
