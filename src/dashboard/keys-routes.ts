import { Elysia } from "elysia";
import { AccessError } from "../access/accounts.ts";
import { activeKeyOf, issueKey, parseScopes, revokeActiveKey } from "../access/keys.ts";
import type { Scope } from "../skills/catalog.ts";
import { KeyPanel, type KeyPanelProps } from "../../views/keys/key-panel.tsx";
import { KeysPage } from "../../views/keys/keys-page.tsx";
import type { DashboardContext } from "./context.ts";
import { sessionGuard, type SignedIn } from "./guard.ts";
import { lastUseOfKey } from "./queries.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import { htmlResponse, isHtmxRequest, pageResponse } from "./render.ts";

type PanelOutcome = Pick<KeyPanelProps, "newKey" | "apiOrigin" | "confirmRevoke" | "notice" | "error">;

/** Key page: see the active key, create a scoped one (shown once), revoke with confirmation. */
export function keysRoutes(context: DashboardContext) {
  const panelFor = async ({ account, viewer }: SignedIn, outcome: PanelOutcome): Promise<KeyPanelProps> => {
    const key = await activeKeyOf(context.db, account.id);
    return {
      csrfToken: viewer.csrfToken,
      allowedScopes: context.catalog.scopesForTier(account.tier),
      activeKey: key
        ? {
            displayId: key.displayId,
            scopes: key.scopes ?? null,
            createdAt: key.createdAt,
            lastUsedAt: await lastUseOfKey(context.db, key.id),
          }
        : null,
      ...outcome,
    };
  };
  /** htmx gets the panel alone; a plain request (JavaScript off) gets the whole page around it. */
  const respond = async (request: Request, signedIn: SignedIn, outcome: PanelOutcome, status = 200) => {
    const panel = await panelFor(signedIn, outcome);
    return isHtmxRequest(request)
      ? htmlResponse(KeyPanel(panel), { status })
      : pageResponse(KeysPage({ viewer: signedIn.viewer, panel }), { status });
  };

  return new Elysia({ name: "dashboard-keys" })
    .use(sessionGuard(context))
    .get(
      "/dashboard/keys",
      ({ request, query, signedIn }) => respond(request, signedIn, { confirmRevoke: query.confirm === "revoke" }),
      {
        signedIn: "account",
      },
    )
    .post(
      "/dashboard/keys",
      async ({ request, body, signedIn }) => {
        const requested = scopeList(body);
        const allowed = context.catalog.scopesForTier(signedIn.account.tier);
        let scopes: Scope[] | null;
        try {
          scopes = parseScopes(requested, context.catalog);
        } catch (error) {
          if (error instanceof AccessError) return respond(request, signedIn, { error: error.message }, 422);
          throw error;
        }
        const beyondTier = (scopes ?? []).filter((scope) => !allowed.includes(scope));
        if (beyondTier.length > 0) {
          return respond(
            request,
            signedIn,
            { error: `Your ${signedIn.account.tier} tier cannot use ${beyondTier.join(", ")}.` },
            422,
          );
        }
        const issued = await issueKey(context.db, signedIn.account.id, scopes, signedIn.now);
        await recordAccountEvent(context.db, {
          at: signedIn.now,
          accountId: signedIn.account.id,
          action: "key_created",
          actor: { accountId: signedIn.account.id },
          detail: issued.record.displayId,
        });
        const apiOrigin = context.options.publicUrl?.href.replace(/\/$/, "") ?? new URL(request.url).origin;
        return respond(request, signedIn, { newKey: issued.key, apiOrigin }, 201);
      },
      { signedIn: "account" },
    )
    .post(
      "/dashboard/keys/revoke",
      async ({ request, signedIn }) => {
        const revoked = await revokeActiveKey(context.db, signedIn.account.id, signedIn.now);
        if (revoked)
          await recordAccountEvent(context.db, {
            at: signedIn.now,
            accountId: signedIn.account.id,
            action: "key_revoked",
            actor: { accountId: signedIn.account.id },
            detail: revoked.displayId,
          });
        const notice = revoked ? `Key ${revoked.displayId} is revoked.` : "There was no active key to revoke.";
        return respond(request, signedIn, { notice });
      },
      { signedIn: "account" },
    );
}

/** A form posts one checkbox as a string and several as an array; none at all means an unscoped key. */
function scopeList(body: unknown): string[] {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>).scopes : undefined;
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return typeof value === "string" ? [value] : [];
}
