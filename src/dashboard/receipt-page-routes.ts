import { Elysia } from "elysia";
import { tierAtLeast } from "../access/tiers.ts";
import { ApiError } from "../errors.ts";
import { receiptTrace } from "../skills/audit-report/index.ts";
import { findOwnReceipt, type OwnReceipt } from "../receipts/store.ts";
import { ProblemPage } from "../../views/errors.tsx";
import { ReceiptPage, type Provenance } from "../../views/receipts/receipt-page.tsx";
import type { DashboardContext } from "./context.ts";
import { sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";

/**
 * Receipt viewer: a receipt of the signed-in account (anyone else's is the same 404 as a missing
 * one). The provenance is what the audit-report skill returns, so it is shown on the tiers that
 * have that skill, and the others are told why not.
 */
export function receiptPageRoutes(context: DashboardContext) {
  const instance = { db: context.db, reference: context.reference, skills: context.skills, log: context.ledger.log };
  return new Elysia({ name: "dashboard-receipts" }).use(sessionGuard(context)).get(
    "/dashboard/receipts/:id",
    async ({ params, signedIn: { account, viewer } }) => {
      let own: OwnReceipt;
      try {
        own = await findOwnReceipt(context.db, params.id, account.id);
      } catch (error) {
        if (!(error instanceof ApiError) || error.errorCode !== "NOT_FOUND") throw error;
        return pageResponse(ProblemPage({ title: "Receipt not found", message: "No receipt with that id exists for this account." }), { status: 404 });
      }
      const requiredTier = context.catalog.minimumTierOf("audit-report");
      const provenance: Provenance = tierAtLeast(account.tier, requiredTier)
        ? { kind: "trace", trace: await receiptTrace(instance, own) }
        : { kind: "locked", currentTier: account.tier, requiredTier };
      const { row } = own;
      return pageResponse(ReceiptPage({ viewer, receipt: { id: row.id, skill: row.skill, issuedAt: row.issuedAt, seq: row.seq, hash: row.hash }, provenance }));
    },
    { signedIn: "account" },
  );
}
