import { describe, expect, test } from "bun:test";
import { findAccountByEmail } from "../../src/access/accounts.ts";
import { issuePasswordLink, redeemPasswordLink } from "../../src/access/passwords.ts";
import { recentAccountEvents } from "../../src/ops/audit-log.ts";
import { accountWithPassword, PASSWORD } from "../support/accounts.ts";
import { dashboardApp, get, post, sessionCookieFrom, signIn } from "./support.ts";
import { defined } from "../support/defined.ts";

const NEW_PASSWORD = "a brand new passphrase";

describe("change password", () => {
  test("needs the current password, signs every other session out, and keeps this browser signed in", async () => {
    const { app, db } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const elsewhere = await signIn(app, "ada@example.com");
    const here = await signIn(app, "ada@example.com");

    const wrong = await post(
      app,
      "/dashboard/password",
      { _csrf: here.csrf, current_password: "not it at all", password: NEW_PASSWORD, password_again: NEW_PASSWORD },
      { cookie: here.cookie },
    );
    expect(wrong.status).toBe(403);
    const noToken = await post(
      app,
      "/dashboard/password",
      { current_password: PASSWORD, password: NEW_PASSWORD, password_again: NEW_PASSWORD },
      { cookie: here.cookie },
    );
    expect(noToken.status).toBe(403);

    const changed = await post(
      app,
      "/dashboard/password",
      { _csrf: here.csrf, current_password: PASSWORD, password: NEW_PASSWORD, password_again: NEW_PASSWORD },
      { cookie: here.cookie },
    );
    expect(changed.status).toBe(303);
    expect(changed.headers.get("location")).toBe("/dashboard/password?changed");
    const fresh = sessionCookieFrom(changed);
    expect((await get(app, "/dashboard", fresh)).status).toBe(200);
    expect((await get(app, "/dashboard", elsewhere.cookie)).status).toBe(303);
    expect((await post(app, "/signin", { email: "ada@example.com", password: PASSWORD })).status).toBe(401);
    expect((await post(app, "/signin", { email: "ada@example.com", password: NEW_PASSWORD })).status).toBe(303);
  }, 60_000);
});

describe("one-time password links", () => {
  test("set the password once, sign in, and die", async () => {
    const { app, db, clock } = await dashboardApp();
    const account = await accountWithPassword(db, "bo@example.com");
    const token = await issuePasswordLink(db, account.id, clock.now());
    const page = await get(app, `/password/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("bo@example.com");
    const differ = await post(app, `/password/${token}`, {
      password: NEW_PASSWORD,
      password_again: "something else entirely",
    });
    expect(differ.status).toBe(422);
    const set = await post(app, `/password/${token}`, { password: NEW_PASSWORD, password_again: NEW_PASSWORD });
    expect(set.status).toBe(303);
    expect((await get(app, "/dashboard", sessionCookieFrom(set))).status).toBe(200);
    expect((await get(app, `/password/${token}`)).status).toBe(404);
    expect(
      (
        await post(app, `/password/${token}`, {
          password: "yet another passphrase",
          password_again: "yet another passphrase",
        })
      ).status,
    ).toBe(404);
    expect(
      await Bun.password.verify(
        NEW_PASSWORD,
        defined(
          defined(await findAccountByEmail(db, "bo@example.com"), 'findAccountByEmail(db, "bo@example.com")')
            .passwordHash,
          '(await findAccountByEmail(db, "bo@example.com")).passwordHash',
        ),
      ),
    ).toBe(true);
  }, 30_000);

  test("two redemptions racing with one link: one sets the password, the other is refused", async () => {
    const { db, clock } = await dashboardApp();
    const account = await accountWithPassword(db, "di@example.com");
    const token = await issuePasswordLink(db, account.id, clock.now());
    const outcomes = await Promise.allSettled(
      ["first passphrase here", "second passphrase here"].map((password) =>
        redeemPasswordLink(db, token, password, clock.now()),
      ),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = defined(
      outcomes.find((outcome) => outcome.status === "rejected"),
      "the refused redemption",
    );
    expect(String(refused.reason)).toContain("used already");
    const winner = outcomes[0]?.status === "fulfilled" ? "first passphrase here" : "second passphrase here";
    const stored = defined((await findAccountByEmail(db, "di@example.com"))?.passwordHash, "the stored hash");
    expect(await Bun.password.verify(winner, stored)).toBe(true);
  }, 30_000);

  test("expire after 24 h, and a newer link kills the older one", async () => {
    const { app, db, clock } = await dashboardApp();
    const account = await accountWithPassword(db, "cy@example.com");
    const older = await issuePasswordLink(db, account.id, clock.now());
    const newer = await issuePasswordLink(db, account.id, clock.now());
    expect((await get(app, `/password/${older}`)).status).toBe(404);
    clock.advance(24 * 60 * 60 * 1000);
    expect((await get(app, `/password/${newer}`)).status).toBe(404);
  });
});

describe("account audit log", () => {
  test("records sign-ins, keys, tier and password changes, and only admins see it", async () => {
    const { app, db } = await dashboardApp();
    const admin = await accountWithPassword(db, "root@example.com", "enterprise", true);
    const user = await accountWithPassword(db, "ann@example.com");
    const ann = await signIn(app, "ann@example.com");
    expect((await post(app, "/dashboard/keys", { _csrf: ann.csrf }, { cookie: ann.cookie })).status).toBe(201);
    expect((await post(app, "/dashboard/keys/revoke", { _csrf: ann.csrf }, { cookie: ann.cookie })).status).toBe(200);
    expect((await get(app, "/dashboard/admin/audit", ann.cookie)).status).toBe(404);

    const root = await signIn(app, "root@example.com");
    expect(
      (
        await post(
          app,
          `/dashboard/admin/accounts/${user.id}/tier`,
          { _csrf: root.csrf, tier: "starter" },
          { cookie: root.cookie },
        )
      ).status,
    ).toBe(200);

    const actions = (await recentAccountEvents(db, { accountId: user.id })).map((e) => [
      e.action,
      e.actor,
      e.detail?.replace(/wbk_\w+…/, "wbk_…"),
    ]);
    expect(actions).toEqual([
      ["tier_changed", admin.id, "explorer → starter"],
      ["key_revoked", user.id, "wbk_…"],
      ["key_created", user.id, "wbk_…"],
      ["signed_in", user.id, "from unknown"],
    ]);
    const page = await get(app, "/dashboard/admin/audit", root.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("tier changed");
    expect(html).toContain("ann@example.com");
    expect(html).not.toMatch(/wbk_[0-9a-f]{64}/);
  }, 60_000);
});
