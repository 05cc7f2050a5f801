import { afterEach, describe, expect, test } from "bun:test";
import ExcelJS from "exceljs";
import Papa from "papaparse";
import { issueKey } from "../../src/access/keys.ts";
import type { Tier } from "../../src/access/tiers.ts";
import { accountWithPassword } from "../support/accounts.ts";
import { defined } from "../support/defined.ts";
import { testInstance, type TestInstance } from "../support/instance.ts";
import { get, ORIGIN, signIn } from "./support.ts";

let instance: TestInstance;
afterEach(() => instance?.stop());

async function signedIn(tier: Tier, withKey = true) {
  instance = await testInstance();
  const email = `analyst-${tier}@example.com`;
  const account = await accountWithPassword(instance.db, email, tier);
  if (withKey) await issueKey(instance.db, account.id, null, instance.clock.now());
  instance.runtime.refreshCaches();
  return { account, ...(await signIn(instance.app, email)) };
}

const monthAnswered = (instance: TestInstance, accountId: string) =>
  (
    instance.db.$client.query("SELECT answered FROM monthly_usage WHERE account_id = ?").get(accountId) as {
      answered: number;
    } | null
  )?.answered ?? 0;

describe("price a lane", () => {
  test("one metered, receipted rate-lookup: map, breakdown, history, locked forecast below professional", async () => {
    const { account, cookie } = await signedIn("starter");
    const query = new URLSearchParams({
      origin: "Chicago, IL",
      destination: "Dallas, TX",
      equipment: "DRY_VAN",
      mode: "FTL",
    });
    const response = await get(instance.app, `/dashboard/lane?${query}`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('class="route-map"');
    expect(html).toMatch(/<path d="M[^"]+" class="route"/);
    expect(html).toContain("Where the cost comes from");
    expect(html).toMatch(/href="\/dashboard\/receipts\/rcpt_/);
    expect(html).toContain("needs the professional tier");
    expect(html).not.toContain("Head haul:");
    const history = JSON.parse(/id="lane-history">([^<]*)</.exec(html)?.[1] ?? "[]") as unknown[];
    expect(history.length).toBeGreaterThan(1);
    expect(monthAnswered(instance, account.id)).toBe(1);
  });

  test("professional sees the forecast as its own metered call; an unknown place says so with suggestions", async () => {
    const { account, cookie } = await signedIn("professional");
    const query = new URLSearchParams({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "REEFER" });
    const html = await (await get(instance.app, `/dashboard/lane?${query}`, cookie)).text();
    expect(html).toContain('id="lane-forecast"');
    expect(monthAnswered(instance, account.id)).toBe(2);
    const bad = await get(
      instance.app,
      `/dashboard/lane?origin=Chicgoo%2C%20IL&destination=Dallas%2C%20TX&equipment=DRY_VAN`,
      cookie,
    );
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain("Did you mean");
  });

  test("a reefer load out of a produce district says what its head haul adds and where the figures come from", async () => {
    const { cookie } = await signedIn("starter");
    const query = new URLSearchParams({ origin: "Fresno, CA", destination: "Seattle, WA", equipment: "REEFER" });
    const html = await (await get(instance.app, `/dashboard/lane?${query}`, cookie)).text();
    expect(html).toMatch(
      /Head haul: a reefer load out of the South and Central District California shipping district costs \d+ % more on its lines other than fuel \(level ×1\.36, this district ×0\.85, into Pacific Northwest ×1\.67;/,
    );
  });

  test("gazetteer suggestions as a datalist", async () => {
    const { cookie } = await signedIn("explorer");
    const html = await (
      await get(instance.app, "/dashboard/lane/places?list=origin-places&origin=Spring", cookie)
    ).text();
    expect(html).toContain('<datalist id="origin-places">');
    expect(html).toContain("Springfield");
  });
});

describe("the key card", () => {
  test("after a key is created it shows a first call to copy and links the docs", async () => {
    const { cookie, csrf } = await signedIn("starter", false);
    const created = await instance.app.handle(
      new Request(`${ORIGIN}/dashboard/keys`, {
        method: "POST",
        body: new URLSearchParams({ _csrf: csrf }),
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", "hx-request": "true", origin: ORIGIN },
      }),
    );
    const html = await created.text();
    const key = /wbk_[0-9a-f]{64}/.exec(html)?.[0] ?? "missing";
    expect(html).toContain(`curl -s ${ORIGIN}/v1/rates/lookup`);
    expect(html).toContain(`Authorization: Bearer ${key}`);
    expect(html).toContain('href="/docs"');
  });
});

describe("price a bid sheet", () => {
  test("upload, progress, priced download with input columns kept and bad rows in place", async () => {
    const { account, cookie, csrf } = await signedIn("starter");
    const csv =
      'ref,origin,destination,equipment\nR1,"Chicago, IL","Dallas, TX",DRY_VAN\nR2,"Qqxzzv, ZZ","Dallas, TX",DRY_VAN\n';
    const body = new FormData();
    body.append("sheet", new File([csv], "rfp.csv", { type: "text/csv" }));
    const upload = await instance.app.handle(
      new Request(`${ORIGIN}/dashboard/sheets`, {
        method: "POST",
        body,
        headers: { cookie, "x-csrf-token": csrf, "hx-request": "true", origin: ORIGIN },
      }),
    );
    expect({ status: upload.status, body: upload.status === 200 ? "" : await upload.text() }).toEqual({
      status: 200,
      body: "",
    });
    const location = upload.headers.get("hx-redirect") ?? "";
    expect(location).toMatch(/^\/dashboard\/sheets\/job_/);
    await instance.runtime.batchRunner.idle();
    const page = await (await get(instance.app, location, cookie)).text();
    expect(page).toContain("2 of 2 lanes settled");
    const download = await get(instance.app, `${location}/priced.csv`, cookie);
    const rows = Papa.parse<Record<string, string>>(await download.text(), { header: true }).data;
    expect(rows.map((row) => row.ref)).toEqual(["R1", "R2"]);
    expect(rows[0]?.receipt_id).toMatch(/^rcpt_/);
    expect(rows[1]?.error).toBe("UNRESOLVED_LOCATION");
    expect(monthAnswered(instance, account.id)).toBe(1);
    const list = await (await get(instance.app, "/dashboard/sheets", cookie)).text();
    expect(list).toContain("rfp.csv");
  });

  test("the XLSX template reads back with its columns and example lanes, and prices as it is into an XLSX", async () => {
    const { cookie, csrf } = await signedIn("starter");
    const page = await (await get(instance.app, "/dashboard/sheets", cookie)).text();
    expect(page).toContain('href="/dashboard/sheets/template.xlsx"');
    const template = await get(instance.app, "/dashboard/sheets/template.xlsx", cookie);
    expect(template.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(template.headers.get("content-disposition")).toContain("bid-sheet-template.xlsx");
    const bytes = await template.arrayBuffer();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes);
    const lanes = defined(workbook.worksheets[0], "the template's worksheet");
    const values = (row: number) => (lanes.getRow(row).values as unknown[]).slice(1);
    // The same columns and lanes as the CSV template.
    const csv = Papa.parse<string[]>(
      await (await get(instance.app, "/dashboard/sheets/template.csv", cookie)).text(),
    ).data;
    expect(values(1)).toEqual(csv[0] ?? []);
    expect(values(2).slice(0, 3)).toEqual(["Chicago, IL", "Dallas, TX", "DRY_VAN"]);

    // An analyst fills nothing in and uploads it: both example lanes are priced, the download is XLSX.
    const body = new FormData();
    body.append(
      "sheet",
      new File([bytes], "bid-sheet-template.xlsx", { type: template.headers.get("content-type") ?? "" }),
    );
    const upload = await instance.app.handle(
      new Request(`${ORIGIN}/dashboard/sheets`, {
        method: "POST",
        body,
        headers: { cookie, "x-csrf-token": csrf, "hx-request": "true", origin: ORIGIN },
      }),
    );
    const location = upload.headers.get("hx-redirect") ?? "";
    expect(location).toMatch(/^\/dashboard\/sheets\/job_/);
    await instance.runtime.batchRunner.idle();
    expect(await (await get(instance.app, location, cookie)).text()).toContain(`href="${location}/priced.xlsx"`);
    const priced = new ExcelJS.Workbook();
    await priced.xlsx.load(await (await get(instance.app, `${location}/priced.xlsx`, cookie)).arrayBuffer());
    const sheet = defined(priced.worksheets[0], "the priced worksheet");
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (row: number, column: string) => sheet.getRow(row).getCell(header.indexOf(column) + 1).value;
    expect(header.slice(0, 8)).toEqual(csv[0] ?? []);
    expect([cell(2, "your_reference"), cell(3, "your_reference")]).toEqual(["RFP-001", "RFP-002"]);
    for (const row of [2, 3]) {
      expect(String(cell(row, "receipt_id"))).toMatch(/^rcpt_/);
      expect(Number(cell(row, "rate_per_mile"))).toBeGreaterThan(0);
    }
  });

  test("a sheet without the columns is refused in words; without a key the page says to create one", async () => {
    const { cookie, csrf } = await signedIn("starter");
    const body = new FormData();
    body.append("sheet", new File(["from,to\nA,B\n"], "wrong.csv", { type: "text/csv" }));
    const refused = await instance.app.handle(
      new Request(`${ORIGIN}/dashboard/sheets`, {
        method: "POST",
        body,
        headers: { cookie, "x-csrf-token": csrf, "hx-request": "true", origin: ORIGIN },
      }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(
      "The sheet was not priced: the header row lacks origin, destination, equipment.",
    );
    await instance.stop();
    const keyless = await signedIn("starter", false);
    expect(await (await get(instance.app, "/dashboard/sheets", keyless.cookie)).text()).toContain("Create a key");
  });
});
