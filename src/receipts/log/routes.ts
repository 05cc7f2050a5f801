import { Elysia } from "elysia";
import { errors } from "../../http/errors.ts";
import type { ReceiptLog } from "./log.ts";
import { parseTileIndexPath } from "./tiles.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const OCTETS = "application/octet-stream";

const b64 = (hash: Uint8Array) => Buffer.from(hash).toString("base64");

function treeSizeParam(raw: string | undefined, field: string, fallback: number | undefined): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  if (raw === undefined || !/^(0|[1-9][0-9]{0,14})$/.test(raw)) {
    throw errors.invalidRequest([{ field, problem: "must be a non-negative integer" }]);
  }
  return Number(raw);
}

/**
 * The log, readable by anyone with no key (docs/receipts.md):
 * - C2SP tlog-tiles: /log/checkpoint, /log/tile/<L>/<N>[.p/<W>], /log/tile/entries/<N>[.p/<W>];
 * - JSON proofs: /v1/log/inclusion?index=&tree_size=, /v1/log/consistency?from=&to=.
 * The leaves are hashes of receipt bodies, so the tree reveals nothing about the receipts.
 */
export function logRoutes(deps: { ledger: { log: ReceiptLog } }) {
  const log = deps.ledger.log;
  const latestSize = () => log.latest()?.size ?? 0;
  const withinLog = (size: number, field: string) => {
    if (size > latestSize()) throw errors.invalidRequest([{ field, problem: `is beyond the latest checkpoint (tree size ${latestSize()})` }]);
  };

  return new Elysia({ name: "waybill.log" })
    .get("/log/checkpoint", () => {
      const latest = log.latest();
      if (!latest) throw errors.notFound("The log is empty: no checkpoint has been signed yet.");
      return new Response(latest.note, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache, max-age=0" } });
    })
    .get("/log/tile/*", ({ params }) => {
      const elements = params["*"].split("/");
      const entries = elements[0] === "entries";
      const level = entries ? 0 : elements[0];
      if (!entries && !/^(0|[1-9][0-9]?)$/.test(String(level))) throw errors.notFound("No such tile.");
      const parsed = parseTileIndexPath(elements.slice(1));
      if (!parsed) throw errors.notFound("No such tile.");
      const cache = parsed.width === null ? IMMUTABLE : "public, max-age=3600";
      if (entries) {
        const bundle = log.entries(parsed.index, parsed.width);
        if (!bundle) throw errors.notFound("No such entry bundle.");
        const body = Buffer.concat(bundle.flatMap((entry) => [Buffer.from([entry.length >> 8, entry.length & 0xff]), entry]));
        return new Response(body, { headers: { "content-type": OCTETS, "cache-control": cache } });
      }
      const hashes = log.tile(Number(level), parsed.index, parsed.width);
      if (!hashes) throw errors.notFound("No such tile.");
      return new Response(Buffer.concat(hashes.map((hash) => Buffer.from(hash))), { headers: { "content-type": OCTETS, "cache-control": cache } });
    })
    .get("/v1/log/inclusion", ({ query }) => {
      const treeSize = treeSizeParam(query.tree_size, "tree_size", latestSize());
      const index = treeSizeParam(query.index, "index", undefined);
      withinLog(treeSize, "tree_size");
      if (index >= treeSize) throw errors.invalidRequest([{ field: "index", problem: `must be below tree_size (${treeSize})` }]);
      return { log_index: index, tree_size: treeSize, hashes: log.inclusionProof(index, treeSize).map(b64) };
    })
    .get("/v1/log/consistency", ({ query }) => {
      const to = treeSizeParam(query.to, "to", latestSize());
      const from = treeSizeParam(query.from, "from", undefined);
      withinLog(to, "to");
      if (from > to) throw errors.invalidRequest([{ field: "from", problem: "must not be above to" }]);
      return { from, to, hashes: log.consistencyProof(from, to).map(b64) };
    });
}
