import { createHash } from "node:crypto";
import { asc, eq, inArray } from "drizzle-orm";
import { announceChange } from "../../db/changes.ts";
import type { Store } from "../../db/client.ts";
import { andThen, isPromise, type MaybePromise } from "../../db/maybe-async.ts";
import { rowsNow } from "../../db/read-now.ts";
import { first, inTransaction } from "../../db/transaction.ts";
import { embeddedRoadNetwork } from "./embedded.ts";
import { isRoadNetworkFile, type RoadNetworkFile } from "./format.ts";
import { parseRoadGeoJson, RoadFileError } from "./geojson.ts";
import { buildRoadNetwork } from "./network-build.ts";
import { RoadNetwork } from "./network.ts";

export interface RoadImportResult {
  version: string;
  added: boolean;
  stats: RoadNetworkFile["stats"];
}

/**
 * Builds a network from a GeoJSON file of road LineStrings and stores it, all or nothing. The version names
 * the file's content, so importing the same file again adds nothing. Refuses a file whose network is too
 * small to route on with RoadFileError.
 */
export async function importRoadNetwork(
  db: Store,
  fileName: string,
  text: string,
  now: number,
): Promise<RoadImportResult> {
  const sha256 = createHash("sha256").update(text).digest("hex");
  const file = buildRoadNetwork(parseRoadGeoJson(text), "imported", sha256, `imported from ${fileName}`);
  if (file.stats.edges === 0)
    throw new RoadFileError("the file's roads do not form a network (no two junctions connected)");
  const added = await inTransaction(db, async (tx) => {
    const { roadNetworks } = tx.t;
    if (
      await first(
        tx.select({ version: roadNetworks.version }).from(roadNetworks).where(eq(roadNetworks.version, file.version)),
      )
    )
      return false;
    await tx
      .insert(roadNetworks)
      .values({ version: file.version, fileName, fileSha256: sha256, importedAt: now, network: JSON.stringify(file) });
    await announceChange(tx);
    return true;
  });
  return { version: file.version, added, stats: file.stats };
}

export interface RoadNetworks {
  /** The network a lookup known at this moment uses: the newest imported by then, else the embedded one. */
  knownAt(knownAt: number): RoadNetwork;
  /** Re-read the imported networks (after another process imported one); synchronous on SQLite. */
  reload(): MaybePromise<void>;
}

/**
 * The list of imported networks is read at reload, and the text of each new one with it (lookups
 * cannot wait for the database); a network is parsed and built the first time a lookup needs it.
 * On SQLite the first lookup reads the list; on PostgreSQL `await reload()` once before it.
 */
export function createRoadNetworks(db: Store): RoadNetworks {
  const { roadNetworks } = db.t;
  const texts = new Map<string, string>();
  const built = new Map<string, RoadNetwork>();
  let imported: { version: string; importedAt: number }[] | undefined;

  const readTexts = (versions: string[]) =>
    versions.length === 0
      ? []
      : rowsNow(
          db,
          db
            .select({ version: roadNetworks.version, network: roadNetworks.network })
            .from(roadNetworks)
            .where(inArray(roadNetworks.version, versions)),
        );
  const reload = (): MaybePromise<void> =>
    andThen(
      rowsNow(
        db,
        db
          .select({ version: roadNetworks.version, importedAt: roadNetworks.importedAt })
          .from(roadNetworks)
          .orderBy(asc(roadNetworks.importedAt), asc(roadNetworks.version)),
      ),
      (rows) =>
        andThen(readTexts(rows.filter((row) => !texts.has(row.version)).map((row) => row.version)), (fresh) => {
          for (const row of fresh) texts.set(row.version, row.network);
          imported = rows;
        }),
    );

  return {
    knownAt(knownAt) {
      if (!imported && isPromise(reload()))
        throw new Error("the road networks are still loading: await reload() before the first lookup");
      const newest = imported!.filter((row) => row.importedAt <= knownAt).at(-1);
      if (!newest) return embeddedRoadNetwork();
      let network = built.get(newest.version);
      if (!network) {
        const parsed: unknown = JSON.parse(texts.get(newest.version)!);
        if (!isRoadNetworkFile(parsed))
          throw new Error(`stored road network ${newest.version} is not in Waybill's format`);
        network = new RoadNetwork(parsed);
        built.set(newest.version, network);
      }
      return network;
    },
    reload,
  };
}
