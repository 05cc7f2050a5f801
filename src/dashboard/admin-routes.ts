import { Elysia } from "elysia";
import { AccessError, findAccountById, listAccounts, parseTier, setTier, type Account } from "../access/accounts.ts";
import { disableAccount, enableAccount } from "../access/account-status.ts";
import { activeKeyOf, revokeActiveKey } from "../access/keys.ts";
import { issuePasswordLink, passwordLinkUrl } from "../access/passwords.ts";
import { monthOf } from "../metering/calendar.ts";
import { AccountUsagePage } from "../../views/admin/account-usage-page.tsx";
import { AccountRowView, AccountsPage, type AccountRow } from "../../views/admin/accounts-page.tsx";
import { dataFamilies } from "../../views/admin/data-freshness.tsx";
import { ProblemPage } from "../../views/errors.tsx";
import type { DashboardContext } from "./context.ts";
import { fieldOf, sessionGuard } from "./guard.ts";
import { answeredThisMonthByAccount } from "./queries.ts";
import { htmlResponse, isHtmxRequest, pageResponse } from "./render.ts";
import { accountUsage } from "./usage-data.ts";
import { recentAccountEvents, recordAccountEvent, type AuditAction } from "../ops/audit-log.ts";
import {
  ACCOUNT_ACTIONS,
  ConfirmAccountActionPage,
  PasswordLinkPage,
  type AccountAction,
} from "../../views/admin/account-action-pages.tsx";
import { AuditPage } from "../../views/admin/audit-page.tsx";

/** Admin pages (is_admin accounts only; everyone else gets the 404 of a page that does not exist). */
export function adminRoutes(context: DashboardContext) {
  const rowOf = async (account: Account, used: ReadonlyMap<string, number>): Promise<AccountRow> => ({
    id: account.id,
    email: account.email,
    tier: account.tier,
    isAdmin: account.isAdmin,
    createdAt: account.createdAt,
    usedThisMonth: used.get(account.id) ?? 0,
    perMonth: context.limits[account.tier].perMonth,
    activeKeyDisplayId: (await activeKeyOf(context.db, account.id))?.displayId ?? null,
    disabled: account.disabledAt !== null,
  });
  const noSuchAccount = () =>
    pageResponse(ProblemPage({ title: "Not found", message: "There is no such account." }), { status: 404 });

  return new Elysia({ name: "dashboard-admin" })
    .use(sessionGuard(context))
    .get(
      "/dashboard/admin",
      async ({ signedIn: { viewer, now } }) => {
        const used = await answeredThisMonthByAccount(context.db, monthOf(now));
        const rows = await Promise.all((await listAccounts(context.db)).map((account) => rowOf(account, used)));
        return pageResponse(
          AccountsPage({ viewer, month: monthOf(now), rows, data: dataFamilies(context.dataFreshness()) }),
        );
      },
      { signedIn: "admin" },
    )
    .post(
      "/dashboard/admin/accounts/:id/tier",
      async ({ params, body, request, signedIn: { account, viewer, now } }) => {
        const before = await findAccountById(context.db, params.id);
        if (!before) return noSuchAccount();
        let updated: Account;
        try {
          updated = await setTier(context.db, params.id, parseTier(fieldOf(body, "tier") ?? ""));
        } catch (error) {
          if (!(error instanceof AccessError)) throw error;
          return pageResponse(ProblemPage({ title: "Tier not changed", message: error.message }), { status: 422 });
        }
        if (updated.tier !== before.tier) {
          await recordAccountEvent(context.db, {
            at: now,
            accountId: updated.id,
            action: "tier_changed",
            actor: { accountId: account.id },
            detail: `${before.tier} → ${updated.tier}`,
          });
        }
        const used = await answeredThisMonthByAccount(context.db, monthOf(now));
        if (isHtmxRequest(request))
          return htmlResponse(
            AccountRowView({ row: await rowOf(updated, used), csrfToken: viewer.csrfToken, saved: true }),
          );
        const rows = await Promise.all((await listAccounts(context.db)).map((account) => rowOf(account, used)));
        return pageResponse(
          AccountsPage({
            viewer,
            month: monthOf(now),
            rows,
            notice: `${updated.email} is now on the ${updated.tier} tier.`,
          }),
        );
      },
      { signedIn: "admin" },
    )
    .get(
      "/dashboard/admin/accounts/:id/confirm/:action",
      async ({ params, signedIn: { viewer } }) => {
        const account = await findAccountById(context.db, params.id);
        const action = ACCOUNT_ACTIONS[params.action as AccountAction["path"]];
        if (!account || !action) return noSuchAccount();
        return pageResponse(ConfirmAccountActionPage({ viewer, accountId: account.id, email: account.email, action }));
      },
      { signedIn: "admin" },
    )
    .post(
      "/dashboard/admin/accounts/:id/:action",
      async ({ params, request, signedIn: { account: admin, viewer, now } }) => {
        const target = await findAccountById(context.db, params.id);
        const action = ACCOUNT_ACTIONS[params.action as AccountAction["path"]];
        if (!target || !action) return noSuchAccount();
        const record = (action: AuditAction, detail?: string) =>
          recordAccountEvent(context.db, {
            at: now,
            accountId: target.id,
            action,
            actor: { accountId: admin.id },
            detail,
          });
        const listWith = async (notice: string) => {
          const used = await answeredThisMonthByAccount(context.db, monthOf(now));
          const rows = await Promise.all((await listAccounts(context.db)).map((account) => rowOf(account, used)));
          return pageResponse(AccountsPage({ viewer, month: monthOf(now), rows, notice }));
        };
        try {
          switch (action.path) {
            case "password-reset": {
              const token = await issuePasswordLink(context.db, target.id, now, { resetPassword: true });
              await record("password_reset", "one-time link issued by an admin");
              const origin = context.options.publicUrl?.origin ?? new URL(request.url).origin;
              return pageResponse(
                PasswordLinkPage({ viewer, email: target.email, link: passwordLinkUrl(origin, token) }),
              );
            }
            case "revoke-key": {
              const revoked = await revokeActiveKey(context.db, target.id, now);
              if (!revoked) return listWith(`${target.email} has no active key.`);
              await record("key_revoked", `${revoked.displayId}, by an admin`);
              return listWith(`The key ${revoked.displayId} of ${target.email} is revoked.`);
            }
            case "disable": {
              if (target.id === admin.id) throw new AccessError("You cannot disable your own account.");
              const { revokedKey } = await disableAccount(context.db, target.id, now);
              await record("account_disabled", revokedKey ? `key ${revokedKey.displayId} revoked` : undefined);
              return listWith(`${target.email} is disabled.`);
            }
            case "enable": {
              await enableAccount(context.db, target.id);
              await record("account_enabled");
              return listWith(`${target.email} is enabled; reset its password to give its owner a link.`);
            }
          }
        } catch (error) {
          if (!(error instanceof AccessError)) throw error;
          return pageResponse(ProblemPage({ title: `${action.title}: not done`, message: error.message }), {
            status: 422,
          });
        }
      },
      { signedIn: "admin" },
    )
    .get(
      "/dashboard/admin/audit",
      async ({ signedIn: { viewer } }) =>
        pageResponse(AuditPage({ viewer, entries: await recentAccountEvents(context.db) })),
      {
        signedIn: "admin",
      },
    )
    .get(
      "/dashboard/admin/accounts/:id",
      async ({ params, signedIn: { viewer, now } }) => {
        const account = await findAccountById(context.db, params.id);
        if (!account) return noSuchAccount();
        const usage = await accountUsage(context.db, account.id, now, context.limits[account.tier]);
        return pageResponse(AccountUsagePage({ viewer, email: account.email, tier: account.tier, ...usage }));
      },
      { signedIn: "admin" },
    );
}
