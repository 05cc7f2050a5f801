import { Elysia } from "elysia";
import { errors } from "../../errors.ts";
import type { ReceiptLog } from "../../receipts/log/log.ts";
import { parseTileIndexPath } from "../../receipts/log/tiles.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const OCTETS = "application/octet-stream";

/**
 * The receipt log as C2SP tlog-tiles, readable by anyone with no key (docs/receipts.md):
 * /log/checkpoint, /log/tile/<L>/<N>[.p/<W>], /log/tile/entries/<N>[.p/<W>]. The leaves are hashes
 * of receipt bodies, so the tree reveals nothing about the receipts.
 */
export function logTileRoutes(deps: { log: ReceiptLog }) {
  const { log } = deps;
  return new Elysia({ name: "waybill.log-tiles" })
    .get("/log/checkpoint", async () => {
      await log.follow();
      const latest = log.latest();
      if (!latest) throw errors.notFound("The log is empty: no checkpoint has been signed yet.");
      return new Response(latest.note, {
        headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache, max-age=0" },
      });
    })
    .get("/log/tile/*", async ({ params }) => {
      const [first = "", ...rest] = params["*"].split("/");
      const entries = first === "entries";
      const level = entries ? "0" : first;
      if (!entries && !/^(0|[1-9][0-9]?)$/.test(level)) throw errors.notFound("No such tile.");
      const parsed = parseTileIndexPath(rest);
      if (!parsed) throw errors.notFound("No such tile.");
      const cache = parsed.width === null ? IMMUTABLE : "public, max-age=3600";
      if (entries) {
        await log.follow();
        const bundle = await log.entries(parsed.index, parsed.width);
        if (!bundle) throw errors.notFound("No such entry bundle.");
        // Each entry as a big-endian uint16 length and its bytes.
        const body = Buffer.concat(
          bundle.flatMap((entry) => [Buffer.from([entry.length >> 8, entry.length & 0xff]), entry]),
        );
        return new Response(body, { headers: { "content-type": OCTETS, "cache-control": cache } });
      }
      await log.follow();
      const hashes = await log.reading(() => log.tile(Number(level), parsed.index, parsed.width));
      if (!hashes) throw errors.notFound("No such tile.");
      return new Response(Buffer.concat(hashes.map((hash) => Buffer.from(hash))), {
        headers: { "content-type": OCTETS, "cache-control": cache },
      });
    });
}
