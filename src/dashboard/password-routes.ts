import { Elysia } from "elysia";
import { AccessError, findAccountById } from "../access/accounts.ts";
import { passwordLinkAccount, redeemPasswordLink, setAccountPassword } from "../access/passwords.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import { ChangePasswordPage, SetPasswordPage } from "../../views/account/password-pages.tsx";
import { ProblemPage } from "../../views/errors.tsx";
import { clientAddressOf } from "./client-address.ts";
import type { DashboardContext } from "./context.ts";
import { sessionCookieHeader, sessionCookiePolicy } from "./cookies.ts";
import { isCrossSiteRequest } from "./csrf.ts";
import { fieldOf, sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";
import { startSession } from "./sessions.ts";
import { retryAfterSeconds } from "./throttle.ts";

const deadLink = () =>
  pageResponse(
    ProblemPage({
      title: "Not found",
      message: "This link has been used already, has expired, or a newer one was printed.",
    }),
    {
      status: 404,
    },
  );

/** Set a password through a one-time link, or change one's own password when signed in. */
export function passwordRoutes(context: DashboardContext) {
  /**
   * After a password change, which signed the account out everywhere: the sign-in throttle forgets the
   * account, the change is in its audit trail (`detail` says how, when not by the current password), and
   * this browser gets a new session and goes on to `location`.
   */
  const passwordChanged = async (
    request: Request,
    account: { id: string; email: string },
    now: number,
    location: string,
    detail?: string,
  ) => {
    context.throttle.forgetAccount({ email: account.email, accountId: account.id });
    await recordAccountEvent(context.db, {
      at: now,
      accountId: account.id,
      action: "password_changed",
      actor: { accountId: account.id },
      ...(detail && { detail }),
    });
    const policy = sessionCookiePolicy(request, context.options);
    const { token } = await startSession(context.db, account.id, now);
    return new Response(null, {
      status: 303,
      headers: { location, "set-cookie": sessionCookieHeader(policy, token), "cache-control": "no-store" },
    });
  };

  return new Elysia({ name: "dashboard-password" })
    .use(sessionGuard(context))
    .get("/password/:token", async ({ params }) => {
      const accountId = await passwordLinkAccount(context.db, params.token, context.clock.now());
      const account = accountId ? await findAccountById(context.db, accountId) : undefined;
      return account ? pageResponse(SetPasswordPage({ token: params.token, email: account.email })) : deadLink();
    })
    .post("/password/:token", async ({ params, body, request }) => {
      const now = context.clock.now();
      const accountId = await passwordLinkAccount(context.db, params.token, now);
      const account = accountId ? await findAccountById(context.db, accountId) : undefined;
      if (isCrossSiteRequest(request, context.options.publicUrl) || !account) return deadLink();
      const password = fieldOf(body, "password") ?? "";
      const again = (error: string) =>
        pageResponse(SetPasswordPage({ token: params.token, email: account.email, error }), { status: 422 });
      if (password !== fieldOf(body, "password_again")) return again("The two passwords differ.");
      try {
        await redeemPasswordLink(context.db, params.token, password, now);
      } catch (error) {
        if (error instanceof AccessError) return again(error.message);
        throw error;
      }
      return passwordChanged(request, account, now, "/dashboard", "one-time link");
    })
    .get(
      "/dashboard/password",
      ({ query, signedIn: { viewer } }) =>
        pageResponse(
          ChangePasswordPage({ viewer, notice: query.changed !== undefined ? "Your password is changed." : undefined }),
        ),
      { signedIn: "account" },
    )
    .post(
      "/dashboard/password",
      async ({ body, request, server, signedIn: { account, viewer, now } }) => {
        const refuse = (error: string, status: number, headers: Record<string, string> = {}) =>
          pageResponse(ChangePasswordPage({ viewer, error }), { status, headers });
        const current = fieldOf(body, "current_password") ?? "";
        const password = fieldOf(body, "password") ?? "";
        // A stolen session must not become a way to guess the password: the check is throttled like a sign-in.
        const admission = context.throttle.passwordChange({
          accountId: account.id,
          address: clientAddressOf(server, request, context.options),
          now,
        });
        if (!admission.admitted) {
          const retryAfter = retryAfterSeconds(admission.retryAfterMs);
          return retryAfter === undefined
            ? refuse("Too many wrong current passwords. Sign out and set the password through a password link.", 429)
            : refuse(`Too many wrong current passwords. Try again in ${retryAfter} s.`, 429, {
                "retry-after": String(retryAfter),
              });
        }
        if (!account.passwordHash || !(await Bun.password.verify(current, account.passwordHash)))
          return refuse("The current password is not right.", 403);
        admission.attempt.succeeded();
        if (password !== fieldOf(body, "password_again")) return refuse("The two new passwords differ.", 422);
        try {
          await setAccountPassword(context.db, account.id, password);
        } catch (error) {
          if (error instanceof AccessError) return refuse(error.message, 422);
          throw error;
        }
        return passwordChanged(request, account, now, "/dashboard/password?changed");
      },
      { signedIn: "account" },
    );
}
