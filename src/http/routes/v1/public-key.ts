import { Elysia } from "elysia";
import type { WaybillReceiptLedger } from "../../../receipts/receipt-ledger.ts";

export interface PublicKeyRouteDeps {
  ledger: Pick<WaybillReceiptLedger, "publishedKeys">;
}

/** GET /v1/receipts/public-key: no authentication, so anyone holding a receipt can verify it offline. */
export function publicKeyRoute(deps: PublicKeyRouteDeps) {
  return new Elysia({ name: "waybill.public-key" }).get("/v1/receipts/public-key", ({ set }) => {
    set.headers["cache-control"] = "public, max-age=300";
    return deps.ledger.publishedKeys();
  });
}
