import { describe, expect, test } from "bun:test";
import { findAccountById } from "../../src/access/accounts.ts";
import { activeKeyOf, issueKey } from "../../src/access/keys.ts";
import { issuePasswordLink } from "../../src/access/passwords.ts";
import { recentAccountEvents } from "../../src/ops/audit-log.ts";
import { accountWithPassword } from "../support/accounts.ts";
import { dashboardApp, get, post, signIn } from "./support.ts";

async function setting() {
  const { app, db } = await dashboardApp();
  const admin = await accountWithPassword(db, "root@example.com", "enterprise", true);
  const user = await accountWithPassword(db, "ann@example.com", "starter");
  const root = await signIn(app, "root@example.com");
  const act = (action: string, target = user.id, csrf = root.csrf) =>
    post(app, `/dashboard/admin/accounts/${target}/${action}`, { _csrf: csrf }, { cookie: root.cookie });
  return { app, db, admin, user, root, act };
}

describe("admin actions on an account", () => {
  test("each has a confirmation page that changes nothing; only admins reach it", async () => {
    const { app, user, root } = await setting();
    const page = await get(app, `/dashboard/admin/accounts/${user.id}/confirm/disable`, root.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("ann@example.com");
    expect(html).toContain(`action="/dashboard/admin/accounts/${user.id}/disable"`);
    expect(html).toContain('name="_csrf"');
    expect((await get(app, `/dashboard/admin/accounts/${user.id}/confirm/nope`, root.cookie)).status).toBe(404);
    const ann = await signIn(app, "ann@example.com");
    expect((await get(app, `/dashboard/admin/accounts/${user.id}/confirm/disable`, ann.cookie)).status).toBe(404);
    expect(
      (await post(app, `/dashboard/admin/accounts/${user.id}/disable`, { _csrf: ann.csrf }, { cookie: ann.cookie }))
        .status,
    ).toBe(404);
  });

  test("without the CSRF token nothing happens; an unknown action or account is a 404", async () => {
    const { db, user, act } = await setting();
    expect((await act("disable", user.id, "forged")).status).toBe(403);
    expect((await findAccountById(db, user.id))?.disabledAt).toBeNull();
    expect((await act("nope")).status).toBe(404);
    expect((await act("disable", "acct_nobody")).status).toBe(404);
  });

  test("disable ends everything at once, refuses keys and links, and is logged; the admin cannot disable themself", async () => {
    const { app, db, admin, user, act } = await setting();
    await issueKey(db, user.id, null, Date.now());
    const ann = await signIn(app, "ann@example.com");
    expect((await act("disable")).status).toBe(200);
    const disabled = await findAccountById(db, user.id);
    expect(disabled?.disabledAt).not.toBeNull();
    expect(disabled?.passwordHash).toBeNull();
    expect(await activeKeyOf(db, user.id)).toBeUndefined();
    expect((await get(app, "/dashboard", ann.cookie)).status).not.toBe(200);
    await expect(issueKey(db, user.id, null, Date.now())).rejects.toThrow("disabled");
    await expect(issuePasswordLink(db, user.id, Date.now())).rejects.toThrow("disabled");
    expect((await act("disable")).status).toBe(422); // already disabled
    expect((await act("disable", admin.id)).status).toBe(422);

    expect((await act("enable")).status).toBe(200);
    expect((await findAccountById(db, user.id))?.disabledAt).toBeNull();
    const actions = (await recentAccountEvents(db, { accountId: user.id })).map((e) => [e.action, e.actor]);
    expect(actions.slice(0, 2)).toEqual([
      ["account_enabled", admin.id],
      ["account_disabled", admin.id],
    ]);
  });

  test("reset password shows a one-time link on the server's origin and stops the old password", async () => {
    const { app, db, user, act } = await setting();
    const ann = await signIn(app, "ann@example.com");
    const reset = await act("password-reset");
    expect(reset.status).toBe(200);
    const link = /http:\/\/localhost\/password\/[A-Za-z0-9_-]{43}/.exec(await reset.text())?.[0] ?? "";
    expect(link).not.toBe("");
    expect((await findAccountById(db, user.id))?.passwordHash).toBeNull();
    expect((await get(app, "/dashboard", ann.cookie)).status).not.toBe(200);
    expect((await get(app, new URL(link).pathname)).status).toBe(200);
    expect((await recentAccountEvents(db, { accountId: user.id }))[0]?.action).toBe("password_reset");
  });
});
