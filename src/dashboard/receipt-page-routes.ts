import { Elysia } from "elysia";
import type { Account } from "../access/accounts.ts";
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
 * have that skill, and the others are told why not. `…/report.json` downloads that same trace,
 * the file `waybill verify --receipt` takes. Both read through the store, on either engine.
 */
export function receiptPageRoutes(context: DashboardContext) {
  const instance = { db: context.db, reference: context.reference, skills: context.skills, log: context.ledger.log };
  const notFound = () =>
    pageResponse(
      ProblemPage({ title: "Receipt not found", message: "No receipt with that id exists for this account." }),
      { status: 404 },
    );

  /** The account's own receipt with what its tier may see of its provenance; null when there is no such receipt. */
  async function provenanceOf(
    receiptId: string,
    account: Account,
  ): Promise<{ own: OwnReceipt; provenance: Provenance } | null> {
    let own: OwnReceipt;
    try {
      own = await findOwnReceipt(context.db, receiptId, account.id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.errorCode !== "NOT_FOUND") throw error;
      return null;
    }
    const requiredTier = context.catalog.minimumTierOf("audit-report");
    const provenance: Provenance = tierAtLeast(account.tier, requiredTier)
      ? { kind: "trace", trace: await receiptTrace(instance, own) }
      : { kind: "locked", currentTier: account.tier, requiredTier };
    return { own, provenance };
  }

  return new Elysia({ name: "dashboard-receipts" })
    .use(sessionGuard(context))
    .get(
      "/dashboard/receipts/:id",
      async ({ params, signedIn: { account, viewer } }) => {
        const found = await provenanceOf(params.id, account);
        if (!found) return notFound();
        const { row } = found.own;
        return pageResponse(
          ReceiptPage({
            viewer,
            receipt: { id: row.id, skill: row.skill, issuedAt: row.issuedAt, seq: row.seq, hash: row.hash },
            provenance: found.provenance,
          }),
        );
      },
      { signedIn: "account" },
    )
    .get(
      "/dashboard/receipts/:id/report.json",
      async ({ params, signedIn: { account } }) => {
        const found = await provenanceOf(params.id, account);
        if (!found) return notFound();
        if (found.provenance.kind === "locked") {
          const { requiredTier } = found.provenance;
          return pageResponse(
            ProblemPage({
              title: "Audit report not included",
              message: `Audit reports come with the ${requiredTier} tier and above.`,
            }),
            {
              status: 403,
            },
          );
        }
        return new Response(JSON.stringify(found.provenance.trace, null, 2), {
          headers: {
            "content-type": "application/json",
            "content-disposition": `attachment; filename="${found.own.row.id}.audit.json"`,
            "cache-control": "no-store",
            "x-content-type-options": "nosniff",
          },
        });
      },
      { signedIn: "account" },
    );
}
