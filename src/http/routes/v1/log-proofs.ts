import { Elysia } from "elysia";
import { errors } from "../../../errors.ts";
import type { ReceiptLog } from "../../../receipts/log/log.ts";

const b64 = (hash: Uint8Array) => Buffer.from(hash).toString("base64");

function sizeParam(raw: string | undefined, field: string, fallback: number | undefined): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  if (raw === undefined || !/^(0|[1-9][0-9]{0,14})$/.test(raw)) {
    throw errors.invalidRequest([{ field, problem: "must be a non-negative integer" }]);
  }
  return Number(raw);
}

/**
 * JSON proofs over the receipt log, no key needed (docs/receipts.md): GET /v1/log/inclusion?index=
 * &tree_size= and GET /v1/log/consistency?from=&to=, sizes defaulting to the latest checkpoint.
 */
export function logProofRoutes(deps: { log: ReceiptLog }) {
  const { log } = deps;
  const latestSize = () => log.latest()?.size ?? 0;
  const withinLog = (size: number, field: string) => {
    if (size > latestSize())
      throw errors.invalidRequest([{ field, problem: `is beyond the latest checkpoint (tree size ${latestSize()})` }]);
  };
  return new Elysia({ name: "waybill.log-proofs" })
    .get("/v1/log/inclusion", async ({ query }) => {
      await log.follow();
      const treeSize = sizeParam(query.tree_size, "tree_size", latestSize());
      const index = sizeParam(query.index, "index", undefined);
      withinLog(treeSize, "tree_size");
      if (index >= treeSize)
        throw errors.invalidRequest([{ field: "index", problem: `must be below tree_size (${treeSize})` }]);
      return {
        log_index: index,
        tree_size: treeSize,
        hashes: (await log.reading(() => log.inclusionProof(index, treeSize))).map(b64),
      };
    })
    .get("/v1/log/consistency", async ({ query }) => {
      await log.follow();
      const to = sizeParam(query.to, "to", latestSize());
      const from = sizeParam(query.from, "from", undefined);
      withinLog(to, "to");
      if (from > to) throw errors.invalidRequest([{ field: "from", problem: "must not be above to" }]);
      return { from, to, hashes: (await log.reading(() => log.consistencyProof(from, to))).map(b64) };
    });
}
