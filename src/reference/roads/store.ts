import { eq, inArray } from "drizzle-orm";
import { announceChange } from "../../db/changes.ts";
import type { Store } from "../../db/client.ts";
import { readsAtOnce } from "../../db/read-now.ts";
import { first, inTransaction } from "../../db/transaction.ts";
import { embeddedRoadNetwork } from "./embedded.ts";
import { isRoadNetworkFile, type RoadNetworkFile } from "./format.ts";
import { RoadFileError } from "./geojson.ts";
import { buildRoadNetwork, type RoadLine } from "./network-build.ts";
import { RoadNetwork } from "./network.ts";
import {
  IMPORT_MEMORY_CAP_MIB,
  memoryCheck,
  type RoadNetworkReport,
  residentMiB,
  validateRoadNetwork,
} from "./validate.ts";

export interface RoadImportResult {
  version: string;
  added: boolean;
  stats: RoadNetworkFile["stats"];
  report: RoadNetworkReport;
}

/** Refuses an import that has grown past the memory cap since it began, saying where. */
function withinMemoryCap(phase: string, startedAtMiB: number): number {
  const used = residentMiB() - startedAtMiB;
  if (used > IMPORT_MEMORY_CAP_MIB)
    throw new RoadFileError(`${phase} took ${used} MiB of memory, over the import cap of ${IMPORT_MEMORY_CAP_MIB} MiB`);
  return used;
}

/**
 * Builds a network from road lines read from a file (GeoJSON or an OpenStreetMap extract), validates it
 * against the network in use (validate.ts) and stores it staged with its report, all or nothing: it
 * prices nothing until promoted. The version names the file's content (its SHA-256), so importing the
 * same file again adds nothing. Refuses a file whose network is too small to route on, or whose import
 * outgrows the memory cap, with RoadFileError. `startedAtMiB` is the resident memory before the file was read:
 * the cap is on what the import adds, whatever the process held already.
 */
export async function stageRoadLines(
  db: Store,
  fileName: string,
  sha256: string,
  lines: RoadLine[],
  now: number,
  inUse: RoadNetwork,
  startedAtMiB: number,
): Promise<RoadImportResult> {
  const afterReading = withinMemoryCap("reading the file", startedAtMiB);
  const file = buildRoadNetwork(lines, "imported", sha256, `imported from ${fileName}`);
  if (file.stats.edges === 0)
    throw new RoadFileError("the file's roads do not form a network (no two junctions connected)");
  const candidate = new RoadNetwork(file);
  const peak = Math.max(afterReading, withinMemoryCap("building the network", startedAtMiB));
  const report = validateRoadNetwork(candidate, inUse, [memoryCheck(peak)]);
  const added = await inTransaction(db, async (tx) => {
    const { roadNetworks } = tx.t;
    if (
      await first(
        tx.select({ version: roadNetworks.version }).from(roadNetworks).where(eq(roadNetworks.version, file.version)),
      )
    )
      return false;
    await tx.insert(roadNetworks).values({
      version: file.version,
      fileName,
      fileSha256: sha256,
      importedAt: now,
      network: JSON.stringify(file),
      status: "staged",
      report: JSON.stringify(report),
    });
    return true;
  });
  return { version: file.version, added, stats: file.stats, report };
}

/** A promotion or retraction that cannot be made; one line for the operator. */
export class RoadNetworkStateError extends Error {
  override name = "RoadNetworkStateError";
}

/** The stored networks' versions, for telling a network version from an import id. */
export async function isRoadNetworkVersion(db: Store, version: string): Promise<boolean> {
  const { roadNetworks } = db.t;
  return (
    (await first(
      db.select({ version: roadNetworks.version }).from(roadNetworks).where(eq(roadNetworks.version, version)),
    )) !== undefined
  );
}

/** Makes a staged network that passed its checks price lookups known from `now` on. */
export async function promoteRoadNetwork(db: Store, version: string, now: number): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { roadNetworks } = tx.t;
    const row = await first(
      tx
        .select({ status: roadNetworks.status, report: roadNetworks.report, retractedAt: roadNetworks.retractedAt })
        .from(roadNetworks)
        .where(eq(roadNetworks.version, version)),
    );
    if (!row) throw new RoadNetworkStateError(`no road network '${version}'; \`waybill data status\` lists them`);
    if (row.retractedAt !== null) throw new RoadNetworkStateError(`road network '${version}' was retracted`);
    if (row.status === "promoted") throw new RoadNetworkStateError(`road network '${version}' is already promoted`);
    const report = JSON.parse(row.report ?? "null") as RoadNetworkReport | null;
    if (!report?.passed) {
      const failed = (report?.checks ?? []).filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
      throw new RoadNetworkStateError(
        `road network '${version}' failed its checks and cannot price lanes: ${failed.join("; ") || "no report"}`,
      );
    }
    await tx.update(roadNetworks).set({ status: "promoted", promotedAt: now }).where(eq(roadNetworks.version, version));
    await announceChange(tx);
  });
}

/** Stops a network pricing lookups known from `now` on; receipts signed before keep reproducing on it. */
export async function retractRoadNetwork(db: Store, version: string, reason: string, now: number): Promise<void> {
  const why = reason.trim();
  if (why === "") throw new RoadNetworkStateError("a retraction needs a reason (--reason TEXT)");
  await inTransaction(db, async (tx) => {
    const { roadNetworks } = tx.t;
    const row = await first(
      tx.select({ retractedAt: roadNetworks.retractedAt }).from(roadNetworks).where(eq(roadNetworks.version, version)),
    );
    if (!row) throw new RoadNetworkStateError(`no road network '${version}'`);
    if (row.retractedAt !== null) throw new RoadNetworkStateError(`road network '${version}' is already retracted`);
    await tx
      .update(roadNetworks)
      .set({ retractedAt: now, retractionReason: why })
      .where(eq(roadNetworks.version, version));
    await announceChange(tx);
  });
}

export interface RoadNetworks {
  /** The network a lookup known at this moment uses: the newest imported by then, else the embedded one. */
  knownAt(knownAt: number): RoadNetwork;
  /** Re-read the imported networks (after another process imported one); on SQLite, done before this returns. */
  reload(): Promise<void>;
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
  /** Promoted networks with the moment each started pricing and (when retracted) stopped. */
  let imported: { version: string; from: number; until: number }[] | undefined;

  const textsQuery = (versions: string[]) =>
    db
      .select({ version: roadNetworks.version, network: roadNetworks.network })
      .from(roadNetworks)
      .where(inArray(roadNetworks.version, versions));
  const promotedQuery = () =>
    db
      .select({
        version: roadNetworks.version,
        importedAt: roadNetworks.importedAt,
        promotedAt: roadNetworks.promotedAt,
        retractedAt: roadNetworks.retractedAt,
      })
      .from(roadNetworks)
      .where(eq(roadNetworks.status, "promoted"));
  type Promoted = Awaited<ReturnType<typeof promotedQuery>>;
  /** The SQLite file reads at once, so there the first lookup reads the list (`knownAt`). */
  const atOnce = readsAtOnce(db);
  const liveOf = (rows: Promoted) =>
    rows
      .map((row) => ({
        version: row.version,
        from: row.promotedAt ?? row.importedAt,
        until: row.retractedAt ?? Number.POSITIVE_INFINITY,
      }))
      .sort((a, b) => a.from - b.from || a.version.localeCompare(b.version));
  const unread = (live: { version: string }[]) =>
    live.filter((row) => !texts.has(row.version)).map((row) => row.version);
  const keep = (fresh: { version: string; network: string }[]) => {
    for (const row of fresh) texts.set(row.version, row.network);
  };
  function reloadNow(): void {
    const live = liveOf(promotedQuery().all());
    const versions = unread(live);
    if (versions.length > 0) keep(textsQuery(versions).all());
    imported = live;
  }
  async function reload(): Promise<void> {
    if (atOnce) return reloadNow();
    const live = liveOf(await promotedQuery());
    const versions = unread(live);
    if (versions.length > 0) keep(await textsQuery(versions));
    imported = live;
  }

  return {
    knownAt(knownAt) {
      if (!imported) {
        if (!atOnce) throw new Error("the road networks are still loading: await reload() before the first lookup");
        reloadNow();
      }
      const newest = (imported ?? []).filter((row) => row.from <= knownAt && knownAt < row.until).at(-1);
      if (!newest) return embeddedRoadNetwork();
      let network = built.get(newest.version);
      if (!network) {
        const text = texts.get(newest.version);
        if (text === undefined)
          throw new Error(`road network ${newest.version} is promoted but its file was never read`);
        const parsed: unknown = JSON.parse(text);
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
