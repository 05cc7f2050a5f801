import { Elysia } from "elysia";
import type { WaybillReceiptLedger } from "../../receipts/chain.ts";

export interface ReceiptRoutesDeps {
  ledger: Pick<WaybillReceiptLedger, "publishedKeys">;
}

/** GET /v1/receipts/public-key: no authentication, so anyone holding a receipt can verify it offline. */
export function receiptRoutes(deps: ReceiptRoutesDeps) {
  return new Elysia({ name: "waybill.receipts" }).get("/v1/receipts/public-key", ({ set }) => {
    set.headers["cache-control"] = "public, max-age=300";
    return deps.ledger.publishedKeys();
  });
}
