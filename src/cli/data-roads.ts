import { statSync } from "node:fs";
import { basename } from "node:path";
import type { Store } from "../db/client.ts";
import { readRoadGeoJsonFile, RoadFileError } from "../reference/roads/geojson.ts";
import {
  createRoadNetworks,
  promoteRoadNetwork,
  retractRoadNetwork,
  RoadNetworkStateError,
  type RoadNetwork,
  stageRoadLines,
} from "../reference/roads/index.ts";
import { fileSha256 } from "../reference/importers/source-lines.ts";
import { readOsmRoadLines } from "../reference/roads/osm.ts";
import type { RoadLine } from "../reference/roads/network-build.ts";
import type { RoadImportResult } from "../reference/roads/store.ts";
import { residentMiB, type RoadNetworkReport } from "../reference/roads/validate.ts";
import { failure, type CommandResult } from "./result.ts";

interface RoadOptions {
  json?: boolean;
  /** Refuse a file larger than this many MiB before reading it. */
  maxMb: number;
  now?: number;
}

const reportLines = (report: RoadNetworkReport) =>
  report.checks.map((check) => `  ${check.passed ? "ok  " : "FAIL"} ${check.name}: ${check.detail}`);

/**
 * `waybill data import roads FILE`: builds the network, checks it against the one in use and stores it
 * staged with its report. It prices nothing until `waybill data roads promote VERSION`.
 */
export function roadsImport(db: Store, file: string, options: RoadOptions): Promise<CommandResult> {
  return importLines(db, file, options, readRoadGeoJsonFile);
}

/** Refuses an oversized file unread, then stages the road lines `read` takes from it. */
function importLines(
  db: Store,
  file: string,
  options: RoadOptions,
  read: (path: string) => RoadLine[] | Promise<RoadLine[]>,
): Promise<CommandResult> {
  const json = options.json ?? false;
  let sha256: string;
  try {
    const size = statSync(file).size;
    if (size > options.maxMb * 1024 * 1024)
      return Promise.resolve(
        failure(
          json,
          `${basename(file)} is ${size} bytes, over the import limit of ${options.maxMb} MiB (--max-mb or WAYBILL_IMPORT_MAX_MB)`,
        ),
      );
    sha256 = fileSha256(file);
  } catch (error) {
    return Promise.resolve(
      failure(json, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`),
    );
  }
  return staged(db, file, json, options.now, async (now, inUse) => {
    const startedAtMiB = residentMiB();
    return stageRoadLines(db, basename(file), sha256, await read(file), now, inUse, startedAtMiB);
  });
}

/** Stages a network built by `build` against the network in use, and says how its checks went. */
async function staged(
  db: Store,
  file: string,
  json: boolean,
  at: number | undefined,
  build: (now: number, inUse: RoadNetwork) => Promise<RoadImportResult>,
): Promise<CommandResult> {
  const now = at ?? Date.now();
  const networks = createRoadNetworks(db);
  await networks.reload();
  try {
    const result = await build(now, networks.knownAt(now));
    const { version, stats, report } = result;
    if (json)
      return { exitCode: 0, output: JSON.stringify({ network: version, added: result.added, ...stats, report }) };
    if (!result.added) return { exitCode: 0, output: `road network ${version} from ${file} is already stored` };
    const next = report.passed
      ? `it prices nothing until promoted: waybill data roads promote ${version}`
      : "it failed its checks and cannot be promoted";
    return {
      exitCode: 0,
      output: [
        `staged road network ${version} from ${file}: ${stats.junctions} junctions, ${stats.edges} roads, ${stats.lengthMiles} mi`,
        `checks against ${report.comparedWith}: ${report.passed ? "passed" : "FAILED"}`,
        ...reportLines(report),
        next,
      ].join("\n"),
    };
  } catch (error) {
    if (error instanceof RoadFileError)
      return failure(json, `${basename(file)} is not a usable road network: ${error.message}`);
    throw error;
  }
}

/**
 * `waybill data import osm FILE.osm.pbf`: an OpenStreetMap extract's motorway, trunk and primary ways
 * (and their links), streamed, staged like a GeoJSON network.
 */
export function osmImport(db: Store, file: string, options: RoadOptions): Promise<CommandResult> {
  return importLines(db, file, options, async (path) => (await readOsmRoadLines(path)).lines);
}

/** Moves a network to another state and says so; a move its state does not allow is refused in one line. */
async function changeNetworkState(
  json: boolean,
  change: () => Promise<void>,
  said: { json: Record<string, string>; text: string },
): Promise<CommandResult> {
  try {
    await change();
  } catch (error) {
    if (error instanceof RoadNetworkStateError) return failure(json, error.message);
    throw error;
  }
  return { exitCode: 0, output: json ? JSON.stringify(said.json) : said.text };
}

/** `waybill data roads promote VERSION`: a staged network that passed its checks prices lookups from now on. */
export function roadsPromote(
  db: Store,
  version: string,
  options: { json?: boolean; now?: number } = {},
): Promise<CommandResult> {
  const now = options.now ?? Date.now();
  const at = new Date(now).toISOString();
  return changeNetworkState(options.json ?? false, () => promoteRoadNetwork(db, version, now), {
    json: { network: version, promoted_at: at },
    text: `promoted road network ${version} at ${at}: lookups known from now on are priced on it`,
  });
}

/** `waybill data retract VERSION --reason TEXT` for a road network. */
export function roadsRetract(
  db: Store,
  version: string,
  reason: string,
  options: { json?: boolean; now?: number } = {},
): Promise<CommandResult> {
  const now = options.now ?? Date.now();
  const at = new Date(now).toISOString();
  return changeNetworkState(options.json ?? false, () => retractRoadNetwork(db, version, reason, now), {
    json: { network: version, retracted_at: at, reason: reason.trim() },
    text: `retracted road network ${version} at ${at}: ${reason.trim()}; lookups fall back to the network before it, receipts signed before keep theirs`,
  });
}
