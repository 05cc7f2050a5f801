import { ulid } from "ulid";
import type { Db } from "../../db/client.ts";
import type { ParsedObservation } from "../admit.ts";
import { appendObservations, sha256Hex, type AppendResult } from "../append.ts";
import { parseAms } from "./ams.ts";
import { parseBls } from "./bls.ts";
import { parseEia } from "./eia.ts";
import { parseFred } from "./fred.ts";
import { parseAta, parseCass, parseFmcsaAuthority, parseFmcsaNewCarriers } from "./trade-tables.ts";

export { ImportFormatError } from "./common.ts";

export const IMPORT_SOURCES = ["eia", "fred", "bls", "ams", "cass", "ata", "fmcsa-authority", "fmcsa-new-carriers"] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

const PARSERS: Record<ImportSourceName, (text: string) => ParsedObservation[]> = {
  eia: parseEia,
  fred: parseFred,
  bls: parseBls,
  ams: parseAms,
  cass: parseCass,
  ata: parseAta,
  "fmcsa-authority": parseFmcsaAuthority,
  "fmcsa-new-carriers": parseFmcsaNewCarriers,
};

export const isImportSource = (value: string): value is ImportSourceName => (IMPORT_SOURCES as readonly string[]).includes(value);

/** Every figure of a published file, read by its source's importer (format errors throw ImportFormatError). */
export const parseSource = (source: ImportSourceName, content: string): ParsedObservation[] => PARSERS[source](content);

/** Parses a whole official file first (any format error stops here), then stores it in one transaction. */
export function importFile(db: Db, source: ImportSourceName, fileName: string, content: string, now: number): AppendResult {
  const rows = parseSource(source, content);
  return appendObservations(db, { importId: `imp_${ulid(now)}`, source, fileName, fileSha256: sha256Hex(content) }, rows, now);
}
