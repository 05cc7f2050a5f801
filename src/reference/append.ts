import type { Db } from "../db/client.ts";

/** One figure read from a file, before it is stored. */
export interface ParsedObservation {
  seriesId: string;
  observedOn: string; // YYYY-MM-DD
  value: number;
}

export interface ImportSource {
  importId: string;
  source: "eia" | "fred" | "bls" | "ams" | "fmcsa" | "snapshot";
  fileName: string;
  fileSha256: string;
}

export interface AppendResult {
  importId: string;
  added: number;
  skipped: number;
}

/**
 * Stores parsed figures as one import, in one transaction. A figure already stored with the same
 * value for the same series and date (from any earlier import) is skipped, so re-importing a file
 * adds nothing; a different value for an old date is a revision and is added beside the old one,
 * never over it. When nothing is new, no import row is written either.
 */
export function appendObservations(db: Db, source: ImportSource, rows: ParsedObservation[], now: number): AppendResult {
  const malformed = rows.find((row) => !isCalendarDate(row.observedOn) || !Number.isFinite(row.value));
  if (malformed) {
    throw new Error(`${malformed.seriesId}: '${malformed.observedOn}' = ${malformed.value} is not a dated figure; nothing was imported.`);
  }
  const sqlite = db.$client;
  const alreadyStored = sqlite.prepare<{ found: number }, [string, string, number]>(
    "SELECT 1 AS found FROM observations WHERE series_id = ? AND observed_on = ? AND value = ? LIMIT 1",
  );
  const insertImport = sqlite.prepare(
    "INSERT INTO data_imports (id, source, file_name, file_sha256, imported_at, rows_added, rows_skipped) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const insertObservation = sqlite.prepare(
    "INSERT INTO observations (series_id, observed_on, value, import_id, fetched_at) VALUES (?, ?, ?, ?, ?)",
  );
  return sqlite.transaction(() => {
    const seen = new Set<string>();
    const fresh: ParsedObservation[] = [];
    for (const row of rows) {
      const key = `${row.seriesId}\u0000${row.observedOn}`;
      if (seen.has(key) || alreadyStored.get(row.seriesId, row.observedOn, row.value)) continue;
      seen.add(key);
      fresh.push(row);
    }
    const skipped = rows.length - fresh.length;
    if (fresh.length > 0) {
      insertImport.run(source.importId, source.source, source.fileName, source.fileSha256, now, fresh.length, skipped);
      for (const row of fresh) insertObservation.run(row.seriesId, row.observedOn, row.value, source.importId, now);
    }
    return { importId: source.importId, added: fresh.length, skipped };
  })();
}

/** A real YYYY-MM-DD date: as-of reads compare these as strings, so nothing else may be stored. */
function isCalendarDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
}

export const sha256Hex = (content: string | Uint8Array): string => new Bun.CryptoHasher("sha256").update(content).digest("hex");
