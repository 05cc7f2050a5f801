import { describe, expect, test } from "bun:test";
import { issuePasswordLink } from "../../src/access/passwords.ts";
import { ACCOUNT_POLICY, ADDRESS_POLICY, SignInThrottle } from "../../src/dashboard/throttle.ts";
import { accountWithPassword, PASSWORD } from "../support/accounts.ts";
import { csrfTokenIn, dashboardApp, get, post, sessionCookieFrom } from "./support.ts";

const WRONG = "not the password";
const from = (address: string) => ({ "x-forwarded-for": address });
/** The cookies a response set, as a request's Cookie header (the session and the known-browser cookie). */
const cookiesFrom = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

describe("sign-in throttling (NIST SP 800-63B: per account and per address, exponential backoff)", () => {
  test("100 simultaneous wrong passwords from one address: only the free ones are checked, the rest refused", async () => {
    const { app, db, clock } = await dashboardApp({ trustProxy: true });
    await accountWithPassword(db, "ada@example.com");
    const attacker = from("203.0.113.9");
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post(app, "/signin", { email: `guess${i}@example.com`, password: WRONG }, attacker).then((r) => r.status),
      ),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_POLICY.freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - ADDRESS_POLICY.freeFailures);

    // The wait is what the 20 checked failures justify (1 s), not a wall: refused attempts add nothing.
    const refused = await post(app, "/signin", { email: "ada@example.com", password: PASSWORD }, attacker);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.text()).toContain("Try again in 1 s");
    // Another address is not affected at all.
    expect(
      (await post(app, "/signin", { email: "ada@example.com", password: PASSWORD }, from("198.51.100.1"))).status,
    ).toBe(303);
    clock.advance(1000);
    expect((await post(app, "/signin", { email: "ada@example.com", password: PASSWORD }, attacker)).status).toBe(303);
  }, 120_000);

  test("the address's wait doubles with each further checked failure", async () => {
    const { app, clock } = await dashboardApp({ trustProxy: true });
    const attacker = from("203.0.113.10");
    for (let i = 0; i < ADDRESS_POLICY.freeFailures; i++) {
      expect((await post(app, "/signin", { email: `g${i}@example.com`, password: WRONG }, attacker)).status).toBe(401);
    }
    const waits: string[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await post(app, "/signin", { email: "g@example.com", password: WRONG }, attacker);
      expect(refused.status).toBe(429);
      const seconds = refused.headers.get("retry-after") ?? "";
      waits.push(seconds);
      clock.advance(Number(seconds) * 1000);
      expect((await post(app, "/signin", { email: "g@example.com", password: WRONG }, attacker)).status).toBe(401);
    }
    expect(waits).toEqual(["1", "2", "4", "8"]);
  }, 120_000);

  test("failures on one account from many addresses refuse new browsers with backoff, never a browser that signed in before", async () => {
    const { app, db, clock } = await dashboardApp({ trustProxy: true });
    await accountWithPassword(db, "ada@example.com");
    // The owner signed in on their laptop last week: it carries the known-browser cookie.
    const laptop = cookiesFrom(
      await post(app, "/signin", { email: "ada@example.com", password: PASSWORD }, from("198.51.100.7")),
    );
    expect(laptop).toContain("__Host-waybill_browser=");

    // An attacker spreads guesses over many addresses, several at once.
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(app, "/signin", { email: "ada@example.com", password: WRONG }, from(`203.0.113.${i}`)).then(
          (r) => r.status,
        ),
      ),
    );
    expect(guesses.filter((status) => status === 401)).toHaveLength(ACCOUNT_POLICY.freeFailures);
    expect(guesses.filter((status) => status === 429)).toHaveLength(12 - ACCOUNT_POLICY.freeFailures);

    // A new browser, even with the right password, waits what five failures justify: 1 s.
    const newBrowser = await post(app, "/signin", { email: "ada@example.com", password: PASSWORD }, from("192.0.2.1"));
    expect(newBrowser.status).toBe(429);
    expect(newBrowser.headers.get("retry-after")).toBe("1");

    // The laptop is let in at once, from the same address the attacker uses too.
    const owner = await post(
      app,
      "/signin",
      { email: "ada@example.com", password: PASSWORD },
      { ...from("203.0.113.1"), cookie: laptop },
    );
    expect(owner.status).toBe(303);

    // The laptop's own record has free failures of its own, but its cookie is worth nothing for another account.
    await accountWithPassword(db, "bo@example.com");
    for (let i = 0; i < ACCOUNT_POLICY.freeFailures; i++) {
      await post(app, "/signin", { email: "bo@example.com", password: WRONG }, from(`192.0.2.${10 + i}`));
    }
    const borrowed = await post(
      app,
      "/signin",
      { email: "bo@example.com", password: PASSWORD },
      { ...from("192.0.2.99"), cookie: laptop },
    );
    expect(borrowed.status).toBe(429);
    clock.advance(1000);
    expect(
      (await post(app, "/signin", { email: "ada@example.com", password: PASSWORD }, from("192.0.2.1"))).status,
    ).toBe(303);
  }, 120_000);

  test("after 100 consecutive failures the account refuses new browsers until its password is set again", async () => {
    const throttle = new SignInThrottle();
    let now = Date.parse("2026-11-23T08:00:00Z");
    let checked = 0;
    for (let i = 0; checked < ACCOUNT_POLICY.lockAfter; i++) {
      const admission = throttle.signIn({ email: "ada@example.com", address: `203.0.${i >> 8}.${i & 255}`, now });
      if (admission.admitted) checked++;
      else now += admission.retryAfterMs;
      expect(Number.isFinite(now)).toBe(true);
    }
    const locked = throttle.signIn({ email: "ada@example.com", address: "192.0.2.1", now: now + 86_000_000 });
    expect(locked).toEqual({ admitted: false, retryAfterMs: Number.POSITIVE_INFINITY });
    // A known browser still gets in; a new password clears the lock.
    const browserToken = throttle.browserToken("ada@example.com");
    expect(throttle.signIn({ email: "ada@example.com", address: "192.0.2.1", browserToken, now }).admitted).toBe(true);
    throttle.forgetAccount({ email: "ada@example.com", accountId: "acc_1" });
    expect(throttle.signIn({ email: "ada@example.com", address: "192.0.2.1", now }).admitted).toBe(true);
  });

  test("the account lock is answered without Retry-After and points to a password link", async () => {
    const { app, db, clock } = await dashboardApp({ trustProxy: true });
    const account = await accountWithPassword(db, "cy@example.com");
    for (let checked = 0, i = 0; checked < ACCOUNT_POLICY.lockAfter; i++) {
      const response = await post(
        app,
        "/signin",
        { email: "cy@example.com", password: WRONG },
        from(`10.0.${i >> 8}.${i & 255}`),
      );
      if (response.status === 401) checked++;
      else clock.advance(Number(response.headers.get("retry-after")) * 1000);
    }
    const locked = await post(app, "/signin", { email: "cy@example.com", password: PASSWORD }, from("192.0.2.50"));
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBeNull();
    expect(await locked.text()).toContain("password link");
    // The administrator's one-time link sets a new password, which ends the lock.
    const token = await issuePasswordLink(db, account.id, clock.now());
    const NEW = "a brand new passphrase";
    expect((await post(app, `/password/${token}`, { password: NEW, password_again: NEW })).status).toBe(303);
    expect((await post(app, "/signin", { email: "cy@example.com", password: NEW }, from("192.0.2.50"))).status).toBe(
      303,
    );
  }, 600_000); // 100 argon2id verifications
});

describe("changing the password in the dashboard is throttled too", () => {
  test("wrong current passwords back off exponentially; the right one after the wait works", async () => {
    const { app, db, clock } = await dashboardApp();
    await accountWithPassword(db, "ada@example.com");
    const signedIn = await post(app, "/signin", { email: "ada@example.com", password: PASSWORD });
    const cookie = sessionCookieFrom(signedIn);
    const csrf = csrfTokenIn(await (await get(app, "/dashboard/password", cookie)).text());
    const NEW = "another good passphrase";
    const change = (current: string) =>
      post(
        app,
        "/dashboard/password",
        { _csrf: csrf, current_password: current, password: NEW, password_again: NEW },
        { cookie },
      );
    // Simultaneous guesses are counted before they are checked.
    const statuses = await Promise.all(Array.from({ length: 10 }, () => change(WRONG).then((r) => r.status)));
    expect(statuses.filter((status) => status === 403)).toHaveLength(ACCOUNT_POLICY.freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10 - ACCOUNT_POLICY.freeFailures);
    const refused = await change(PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    clock.advance(1000);
    expect((await change(WRONG)).status).toBe(403);
    const doubled = await change(PASSWORD);
    expect(doubled.headers.get("retry-after")).toBe("2");
    clock.advance(2000);
    const changed = await change(PASSWORD);
    expect(changed.status).toBe(303);
  }, 120_000);
});
