import { Elysia } from "elysia";
import { AccessError } from "../access/accounts.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import { SetupPage } from "../../views/auth/setup.tsx";
import { ProblemPage } from "../../views/errors.tsx";
import type { DashboardContext } from "./context.ts";
import { sessionCookieHeader, sessionCookiePolicy } from "./cookies.ts";
import { isCrossSiteRequest } from "./csrf.ts";
import { fieldOf } from "./guard.ts";
import { pageResponse } from "./render.ts";
import { startSession } from "./sessions.ts";
import { completeSetup, isLiveSetupToken, SetupRefused } from "./setup.ts";

const deadLink = () =>
  pageResponse(
    ProblemPage({ title: "Not found", message: "This setup link has been used already, or a newer one was printed." }),
    {
      status: 404,
    },
  );

/** The one-time setup URL printed on first start: a form that creates the admin account, then the link is dead. */
export function setupRoutes(context: DashboardContext) {
  return new Elysia({ name: "dashboard-setup" })
    .get("/setup/:token", async ({ params }) =>
      (await isLiveSetupToken(context.db, params.token))
        ? pageResponse(SetupPage({ token: params.token }))
        : deadLink(),
    )
    .post("/setup/:token", async ({ params, body, request }) => {
      // The token in the path is the secret a forged cross-site post would lack; the origin check is belt and braces.
      if (isCrossSiteRequest(request, context.options.publicUrl) || !(await isLiveSetupToken(context.db, params.token)))
        return deadLink();
      const email = fieldOf(body, "email") ?? "";
      const password = fieldOf(body, "password") ?? "";
      const again = (error: string) => pageResponse(SetupPage({ token: params.token, email, error }), { status: 422 });
      if (password !== fieldOf(body, "password_again")) return again("The two passwords differ.");

      const now = context.clock.now();
      let adminId: string;
      try {
        adminId = (await completeSetup(context.db, params.token, email, password, now)).id;
      } catch (error) {
        if (error instanceof SetupRefused) return deadLink();
        if (error instanceof AccessError) return again(error.message);
        throw error;
      }
      await recordAccountEvent(context.db, {
        at: now,
        accountId: adminId,
        action: "account_created",
        actor: { accountId: adminId },
        detail: "admin, through the first-start setup link",
      });
      const policy = sessionCookiePolicy(request, context.options);
      const { token } = await startSession(context.db, adminId, now);
      return new Response(null, {
        status: 303,
        headers: { location: "/dashboard", "set-cookie": sessionCookieHeader(policy, token) },
      });
    });
}
