import { Elysia } from "elysia";
import { findAccountByEmail } from "../access/accounts.ts";
import { SignInPage, type SignInProps } from "../../views/auth/sign-in.tsx";
import { ProblemPage } from "../../views/errors.tsx";
import { clientAddressOf } from "./client-address.ts";
import type { DashboardContext } from "./context.ts";
import { clearedSessionCookieHeader, readSessionToken, sessionCookieHeader, sessionCookiePolicy } from "./cookies.ts";
import { isCrossSiteRequest } from "./csrf.ts";
import { fieldOf, safeNextPath, sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import { randomToken } from "./secrets.ts";
import { endSession, startSession } from "./sessions.ts";

/** Verifying against this when the email is unknown makes "no such account" cost as long as "wrong password". */
let decoyHash: Promise<string> | undefined;
function decoyPasswordHash(): Promise<string> {
  decoyHash ??= Bun.password.hash(randomToken(), { algorithm: "argon2id" });
  return decoyHash;
}

const SIGNED_OUT_NOTICE = "You have signed out.";

function signInPage(props: SignInProps, status = 200, headers: Record<string, string> = {}) {
  return pageResponse(SignInPage(props), { status, headers });
}

export function authRoutes(context: DashboardContext) {
  return new Elysia({ name: "dashboard-auth" })
    .use(sessionGuard(context))
    .get("/", () => new Response(null, { status: 303, headers: { location: "/dashboard" } }))
    .get("/signin", ({ query }) =>
      signInPage({
        next: safeNextPath(query.next),
        notice: query.signed_out !== undefined ? SIGNED_OUT_NOTICE : undefined,
      }),
    )
    .post("/signin", async ({ request, body, query, server }) => {
      if (isCrossSiteRequest(request, context.options.publicUrl)) {
        return pageResponse(
          ProblemPage({ title: "Request refused", message: "Sign in from this site's own sign-in page." }),
          { status: 403 },
        );
      }
      const now = context.clock.now();
      const email = (fieldOf(body, "email") ?? "").trim().toLowerCase();
      const password = fieldOf(body, "password") ?? "";
      const next = safeNextPath(query.next);
      const address = clientAddressOf(server, request, context.options);

      const wait = context.throttle.addressWait(address, now);
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        return signInPage(
          { email, next, error: `Too many failed sign-ins from your address. Try again in ${seconds} s.` },
          429,
          {
            "retry-after": String(seconds),
          },
        );
      }
      const delay = context.throttle.accountDelay(email);
      if (delay > 0) await context.sleep(delay);

      const account = email ? await findAccountByEmail(context.db, email) : undefined;
      const passwordMatches = await Bun.password.verify(password, account?.passwordHash ?? (await decoyPasswordHash()));
      if (!account?.passwordHash || !passwordMatches) {
        context.throttle.recordFailure(email, address, now);
        return signInPage({ email, next, error: "That email and password do not match an account." }, 401);
      }

      context.throttle.recordSuccess(email);
      await recordAccountEvent(context.db, {
        at: now,
        accountId: account.id,
        action: "signed_in",
        actor: { accountId: account.id },
        detail: `from ${address}`,
      });
      const policy = sessionCookiePolicy(request, context.options);
      const { token } = await startSession(context.db, account.id, now, readSessionToken(request, policy));
      return new Response(null, {
        status: 303,
        headers: {
          location: next ?? "/dashboard",
          "set-cookie": sessionCookieHeader(policy, token),
          "cache-control": "no-store",
        },
      });
    })
    .post(
      "/signout",
      async ({ request }) => {
        const policy = sessionCookiePolicy(request, context.options);
        const token = readSessionToken(request, policy);
        if (token) await endSession(context.db, token);
        return new Response(null, {
          status: 303,
          headers: { location: "/signin?signed_out", "set-cookie": clearedSessionCookieHeader(policy) },
        });
      },
      { signedIn: "account" },
    );
}
