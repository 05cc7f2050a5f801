import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findAccountByEmail } from "../../src/access/accounts.ts";
import { activeKeyOf, issueKey } from "../../src/access/keys.ts";
import { setupUrlOnFirstStart } from "../../src/dashboard/index.ts";
import { IDLE_TIMEOUT_MS, ABSOLUTE_TIMEOUT_MS } from "../../src/dashboard/sessions.ts";
import { sessions } from "../../src/db/schema.ts";
import { PUBLIC_DIR } from "../../src/paths.ts";
import { accountWithPassword, PASSWORD } from "../support/accounts.ts";
import { CHICAGO_TO_DALLAS } from "../support/instance.ts";
import { dashboardApp, form, get, ORIGIN, post, sessionCookieFrom, signIn } from "./support.ts";
import { defined } from "../support/defined.ts";

describe("sign-in and the session cookie", () => {
  test("argon2id hashes; a __Host- cookie that is HttpOnly, Secure, SameSite=Lax on localhost", async () => {
    const { app, db } = await dashboardApp();
    const account = await accountWithPassword(db, "ada@example.com");
    expect(account.passwordHash).toStartWith("$argon2id$");
    const response = await post(app, "/signin", { email: "ada@example.com", password: PASSWORD });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard");
    const cookie = defined(response.headers.get("set-cookie"), "the session cookie");
    expect(cookie).toStartWith("__Host-waybill_session=");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Domain");
    // only the digest is stored
    const token = defined(sessionCookieFrom(response).split("=")[1], "the session token");
    const stored = db.select().from(sessions).all();
    expect(stored).toHaveLength(1);
    const { digest } = defined(stored[0], "the stored session");
    expect(digest).not.toBe(token);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
  });

  test("plain HTTP to a non-loopback host falls back to waybill_session without Secure", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "lan@example.com");
    const response = await app.handle(
      new Request("http://192.168.1.20:8080/signin", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form({ email: "lan@example.com", password: PASSWORD }),
      }),
    );
    const cookie = defined(response.headers.get("set-cookie"), "the session cookie");
    expect(cookie).toStartWith("waybill_session=");
    expect(cookie).not.toContain("Secure");
    expect(cookie).toContain("HttpOnly");
  });

  test("wrong password and unknown email get the same refusal, and no cookie", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const wrong = await post(app, "/signin", { email: "ada@example.com", password: "not the password" });
    const unknown = await post(app, "/signin", { email: "nobody@example.com", password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(await wrong.text()).toContain("do not match an account");
    expect(await unknown.text()).toContain("do not match an account");
  });

  test("signing in rotates the session: new token, the old row is gone", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const first = await signIn(app, "ada@example.com");
    const second = await post(
      app,
      "/signin",
      { email: "ada@example.com", password: PASSWORD },
      { cookie: first.cookie },
    );
    const secondCookie = sessionCookieFrom(second);
    expect(secondCookie).not.toBe(first.cookie);
    expect(db.select().from(sessions).all()).toHaveLength(1);
    expect((await get(app, "/dashboard", first.cookie)).status).toBe(303);
    expect((await get(app, "/dashboard", secondCookie)).status).toBe(200);
  });

  test("sign-out ends the session on the server", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const { cookie, csrf } = await signIn(app, "ada@example.com");
    const out = await post(app, "/signout", { _csrf: csrf }, { cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect(db.select().from(sessions).all()).toHaveLength(0);
    const after = await get(app, "/dashboard", cookie);
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/signin?next=%2Fdashboard");
  });

  test("idle and absolute expiry (ManualClock)", async () => {
    const { app, db, clock } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const { cookie } = await signIn(app, "ada@example.com");
    clock.advance(IDLE_TIMEOUT_MS - 60_000);
    expect((await get(app, "/dashboard", cookie)).status).toBe(200); // activity slides the idle window
    clock.advance(IDLE_TIMEOUT_MS - 60_000);
    expect((await get(app, "/dashboard", cookie)).status).toBe(200);
    clock.advance(IDLE_TIMEOUT_MS);
    expect((await get(app, "/dashboard", cookie)).status).toBe(303);

    const again = await signIn(app, "ada@example.com");
    const step = IDLE_TIMEOUT_MS / 2;
    for (let elapsed = step; elapsed < ABSOLUTE_TIMEOUT_MS; elapsed += step) {
      clock.advance(step);
      expect((await get(app, "/dashboard", again.cookie)).status).toBe(200);
    }
    clock.advance(step);
    expect((await get(app, "/dashboard", again.cookie)).status).toBe(303); // 12 h after sign-in, however active
  });

  test("failed sign-ins are throttled per client address across emails", async () => {
    const { app, db } = await dashboardApp({ trustProxy: true });
    await accountWithPassword(db, "ada@example.com");
    const from = { "x-forwarded-for": "203.0.113.9" };
    for (let i = 0; i < 21; i++)
      await post(app, "/signin", { email: `guess${i}@example.com`, password: "wrong password" }, from);
    expect((await post(app, "/signin", { email: "ada@example.com", password: PASSWORD }, from)).status).toBe(429);
    expect(
      (
        await post(
          app,
          "/signin",
          { email: "ada@example.com", password: PASSWORD },
          { "x-forwarded-for": "198.51.100.1" },
        )
      ).status,
    ).toBe(303);
  }, 60_000); // 23 argon2id verifications
});

describe("CSRF", () => {
  test("a state change without the token, with a wrong one, or cross-site is refused with 403", async () => {
    const { app, db } = await dashboardApp();
    const ada = await accountWithPassword(db, "ada@example.com");
    const { cookie, csrf } = await signIn(app, "ada@example.com");
    expect((await post(app, "/dashboard/keys", {}, { cookie })).status).toBe(403);
    expect((await post(app, "/dashboard/keys", { _csrf: "forged" }, { cookie })).status).toBe(403);
    expect(
      (await post(app, "/dashboard/keys", { _csrf: csrf }, { cookie, "sec-fetch-site": "cross-site" })).status,
    ).toBe(403);
    expect(
      (await post(app, "/dashboard/keys", { _csrf: csrf }, { cookie, origin: "https://evil.example" })).status,
    ).toBe(403);
    expect(await activeKeyOf(db, ada.id)).toBeUndefined();
    // the header (as htmx sends it) or the hidden field both work
    expect(
      (await post(app, "/dashboard/keys", {}, { cookie, "x-csrf-token": csrf, "sec-fetch-site": "same-origin" }))
        .status,
    ).toBe(201);
    expect((await post(app, "/dashboard/keys", { _csrf: csrf }, { cookie })).status).toBe(201);
  });

  test("a token from another session is worthless", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    await accountWithPassword(db, "bob@example.com");
    const ada = await signIn(app, "ada@example.com");
    const bob = await signIn(app, "bob@example.com");
    expect((await post(app, "/dashboard/keys", { _csrf: bob.csrf }, { cookie: ada.cookie })).status).toBe(403);
  });

  test("a cross-site sign-in post is refused", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const response = await post(
      app,
      "/signin",
      { email: "ada@example.com", password: PASSWORD },
      { "sec-fetch-site": "cross-site" },
    );
    expect(response.status).toBe(403);
  });
});

describe("keys through the dashboard", () => {
  test("htmx gets the panel fragment with the key once; a plain post gets a full page; the tier bounds the scopes", async () => {
    const { app, db } = await dashboardApp();
    const ada = await accountWithPassword(db, "ada@example.com", "explorer");
    const { cookie, csrf } = await signIn(app, "ada@example.com");
    const htmx = await post(
      app,
      "/dashboard/keys",
      { scopes: ["rate-lookup", "fuel-surcharge"] },
      { cookie, "x-csrf-token": csrf, "hx-request": "true" },
    );
    const fragment = await htmx.text();
    expect(fragment).toStartWith('<section id="key-panel"');
    const key = defined(/wbk_[0-9a-f]{64}/.exec(fragment)?.[0], "the new key in the fragment");
    expect((await activeKeyOf(db, ada.id))?.scopes).toEqual(["rate-lookup", "fuel-surcharge"]);

    const page = await (await get(app, "/dashboard/keys", cookie)).text();
    expect(page).toStartWith("<!doctype html>");
    expect(page).not.toContain(key);
    expect(page).toContain(`${key.slice(0, 12)}…`);
    // Each scope reads as the skill's name in words, its id beside it.
    expect(page).toMatch(/value="fuel-surcharge"\s*\/>\s*<span>Fuel Surcharge<\/span>/);

    const beyond = await post(app, "/dashboard/keys", { _csrf: csrf, scopes: "audit-report" }, { cookie });
    expect(beyond.status).toBe(422);
    expect(await beyond.text()).toContain("explorer tier cannot use audit-report");
    expect((await activeKeyOf(db, ada.id))?.scopes).toEqual(["rate-lookup", "fuel-surcharge"]);

    const revoke = await post(app, "/dashboard/keys/revoke", { _csrf: csrf }, { cookie });
    expect(revoke.status).toBe(200);
    expect(await revoke.text()).toStartWith("<!doctype html>");
    expect(await activeKeyOf(db, ada.id)).toBeUndefined();
  });
});

describe("the receipt page", () => {
  test("links the audit report as a download: the trace as a JSON attachment, 404 for anyone else's receipt, 403 below the tier", async () => {
    const { app, db, clock } = await dashboardApp();
    const answer = async (email: string, tier: "professional" | "explorer") => {
      const account = await accountWithPassword(db, email, tier);
      const { key } = await issueKey(db, account.id, null, clock.now());
      const response = await app.handle(
        new Request(`${ORIGIN}/v1/rates/lookup`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(CHICAGO_TO_DALLAS),
        }),
      );
      return ((await response.json()) as { receipt_id: string }).receipt_id;
    };
    const own = await answer("pro@example.com", "professional");
    const lower = await answer("explorer@example.com", "explorer");
    const { cookie } = await signIn(app, "pro@example.com");

    const page = await (await get(app, `/dashboard/receipts/${own}`, cookie)).text();
    expect(page).toContain(`href="/dashboard/receipts/${own}/report.json"`);
    const download = await get(app, `/dashboard/receipts/${own}/report.json`, cookie);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${own}.audit.json"`);
    const report = (await download.json()) as {
      receipt_id: string;
      report_type: string;
      log: { leaf_entry: string };
      verification: { included: boolean };
    };
    expect(report).toMatchObject({ receipt_id: own, report_type: "RECEIPT_TRACE", verification: { included: true } });

    expect((await get(app, `/dashboard/receipts/${lower}/report.json`, cookie)).status).toBe(404);
    const explorer = await signIn(app, "explorer@example.com");
    expect((await get(app, `/dashboard/receipts/${lower}/report.json`, explorer.cookie)).status).toBe(403);
    expect((await get(app, `/dashboard/receipts/${own}/report.json`)).status).toBe(303);
  }, 30_000);
});

describe("admin pages", () => {
  test("non-admins get 404; an admin lists accounts and changes a tier", async () => {
    const { app, db } = await dashboardApp();
    const bob = await accountWithPassword(db, "bob@example.com");
    await accountWithPassword(db, "root@example.com", "explorer", true);
    const user = await signIn(app, "bob@example.com");
    expect((await get(app, "/dashboard/admin", user.cookie)).status).toBe(404);
    expect((await get(app, `/dashboard/admin/accounts/${bob.id}`, user.cookie)).status).toBe(404);
    expect(
      (
        await post(
          app,
          `/dashboard/admin/accounts/${bob.id}/tier`,
          { _csrf: user.csrf, tier: "enterprise" },
          { cookie: user.cookie },
        )
      ).status,
    ).toBe(404);
    expect((await findAccountByEmail(db, "bob@example.com"))?.tier).toBe("explorer");

    const admin = await signIn(app, "root@example.com");
    const list = await (await get(app, "/dashboard/admin", admin.cookie)).text();
    expect(list).toContain("bob@example.com");
    // The reference data table: each source family, its newest figure and how many series are overdue.
    expect(list).toContain("Reference data");
    expect(list).toContain("USDA AMS reefer truck rates");
    const row = await post(
      app,
      `/dashboard/admin/accounts/${bob.id}/tier`,
      { tier: "professional" },
      { cookie: admin.cookie, "x-csrf-token": admin.csrf, "hx-request": "true" },
    );
    expect(row.status).toBe(200);
    expect(await row.text()).toStartWith(`<tr id="account-${bob.id}"`);
    expect((await findAccountByEmail(db, "bob@example.com"))?.tier).toBe("professional");
    expect((await get(app, `/dashboard/admin/accounts/${bob.id}`, admin.cookie)).status).toBe(200);
  });
});

describe("first start", () => {
  test("the setup URL creates the admin once; afterwards it is dead and no URL is printed", async () => {
    const { app, db } = await dashboardApp();
    const url = defined(await setupUrlOnFirstStart(db, "http://localhost:8080/"), "the setup URL");
    expect(url).toMatch(/^http:\/\/localhost:8080\/setup\/[\w-]{43}$/);
    const path = new URL(url).pathname;
    expect((await get(app, "/setup/not-the-token")).status).toBe(404);
    expect((await get(app, path)).status).toBe(200);
    const mismatch = await post(app, path, {
      email: "root@example.com",
      password: PASSWORD,
      password_again: "something else",
    });
    expect(mismatch.status).toBe(422);
    const created = await post(app, path, { email: "root@example.com", password: PASSWORD, password_again: PASSWORD });
    expect(created.status).toBe(303);
    expect(created.headers.get("set-cookie")).toStartWith("__Host-waybill_session=");
    expect((await findAccountByEmail(db, "root@example.com"))?.isAdmin).toBe(true);
    expect((await get(app, path)).status).toBe(404);
    expect(
      (await post(app, path, { email: "second@example.com", password: PASSWORD, password_again: PASSWORD })).status,
    ).toBe(404);
    expect(await setupUrlOnFirstStart(db, "http://localhost:8080")).toBeNull();
    expect((await get(app, "/dashboard/admin", sessionCookieFrom(created))).status).toBe(200);
  });

  test("a restart before setup replaces the token: only the newest URL works", async () => {
    const { app, db } = await dashboardApp();
    const first = new URL(defined(await setupUrlOnFirstStart(db, "http://localhost"), "the first setup URL")).pathname;
    const second = new URL(defined(await setupUrlOnFirstStart(db, "http://localhost"), "the second setup URL"))
      .pathname;
    expect((await get(app, first)).status).toBe(404);
    expect((await get(app, second)).status).toBe(200);
  });
});

describe("escaping and static assets", () => {
  test("hostile account data is escaped on every page that shows it", async () => {
    const { app, db } = await dashboardApp();
    // Passes the email shape check (no spaces), so it is data an account really can carry.
    const hostile = '"><img/src=x/onerror=alert(1)>@x.io';
    await accountWithPassword(db, hostile, "explorer", true);
    const { cookie } = await signIn(app, hostile);
    for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/usage", "/dashboard/admin"]) {
      const html = await (await get(app, path, cookie)).text();
      // Inside a quoted attribute `<` is inert, and `"` is escaped there, so no value can end early:
      // with attribute values removed, the markup must hold no img tag.
      expect(html.replace(/="[^"]*"/g, '=""')).not.toContain("<img/src=x");
      expect(html).toContain("&lt;img/src=x/onerror=alert(1)&gt;@x.io");
    }
  });

  test("public/htmx.min.js is byte for byte the installed htmx.org build, served with a type and cache headers", async () => {
    const installed = readFileSync(join(import.meta.dir, "../../node_modules/htmx.org/dist/htmx.min.js"));
    expect(Buffer.compare(readFileSync(join(PUBLIC_DIR, "htmx.min.js")), installed)).toBe(0);
    const uplot = readFileSync(join(import.meta.dir, "../../node_modules/uplot/dist/uPlot.iife.min.js"));
    expect(Buffer.compare(readFileSync(join(PUBLIC_DIR, "uPlot.iife.min.js")), uplot)).toBe(0);

    const { app } = await dashboardApp();
    const plain = await get(app, "/public/htmx.min.js");
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(plain.headers.get("cache-control")).toBe("public, no-cache");
    expect(Buffer.compare(Buffer.from(await plain.arrayBuffer()), installed)).toBe(0);
    const etag = defined(plain.headers.get("etag"), "the ETag");
    const versioned = await get(app, `/public/htmx.min.js?v=${etag.slice(1, -1)}`);
    expect(versioned.headers.get("cache-control")).toContain("immutable");
    const revalidated = await app.handle(
      new Request(`${ORIGIN}/public/htmx.min.js`, { headers: { "if-none-match": etag } }),
    );
    expect(revalidated.status).toBe(304);
    expect((await get(app, "/public/app.css")).headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await get(app, "/public/..%2Fpackage.json")).status).toBe(404);
  });

  test("pages load nothing from another origin and forbid inline script", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const { cookie } = await signIn(app, "ada@example.com");
    const response = await get(app, "/dashboard/usage", cookie);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await response.text()).not.toMatch(/(src|href)="https?:/);
  });
});
