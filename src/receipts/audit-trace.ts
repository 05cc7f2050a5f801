import { t, type Static } from "elysia";
import type { Db } from "../db/client.ts";
import type { ReferenceData } from "../reference/view.ts";
import type { AnySkill, FactorVersion } from "../skills/types.ts";
import type { OwnReceipt } from "./store.ts";
import { notReplayed, replay } from "./replay.ts";
import { checkStoredReceipt } from "./verify.ts";

const FactorVersionSchema = t.Object({
  series_id: t.String(),
  value: t.Number(),
  observation_date: t.String(),
  import_id: t.String(),
});

const DataSourceSchema = t.Object({
  ...FactorVersionSchema.properties,
  /** The import's source (eia, bls, fred, ams, fmcsa, snapshot); null when the observation is not stored. */
  source: t.Union([t.String(), t.Null()]),
  file_name: t.Union([t.String(), t.Null()]),
  fetched_at: t.Union([t.String(), t.Null()]),
  imported_at: t.Union([t.String(), t.Null()]),
  /** The stored observation (series, date, import) exists and holds the recorded value. */
  matches_stored_observation: t.Boolean(),
  /** Set when an operator retracted the import later (`waybill data retract`); the receipt keeps its figures. */
  retraction: t.Union([t.Object({ retracted_at: t.String(), reason: t.String() }), t.Null()]),
});

export const ReceiptTraceSchema = t.Object({
  report_type: t.Literal("RECEIPT_TRACE"),
  receipt_id: t.String(),
  skill: t.String(),
  model_version: t.Union([t.String(), t.Null()]),
  timestamps: t.Object({
    issued_at: t.String(),
    as_of: t.Union([t.String(), t.Null()]),
    known_at: t.Union([t.String(), t.Null()]),
  }),
  authorization: t.Object({
    auth_obj_id: t.String(),
    account_id: t.String(),
    tier: t.String(),
    scopes: t.Union([t.Array(t.String()), t.Null()]),
  }),
  request: t.Unknown(),
  /** The signed digest of the answer; the receipt does not keep the answer itself. */
  response_sha256: t.Union([t.String(), t.Null()]),
  /** The answer re-computed from the request and the pinned data; its digest is checked in `verification`. Null when not re-run. */
  reproduced_response: t.Unknown(),
  data_sources: t.Array(DataSourceSchema),
  factor_versions: t.Array(FactorVersionSchema),
  chain: t.Object({
    seq: t.Integer(),
    prev_hash: t.String(),
    hash: t.String(),
    signature: t.String(),
    kid: t.String(),
    algorithm: t.Literal("Ed25519"),
    /** The signed record itself: hash = SHA-256(JCS(body)); feed this block to scripts/verify-receipt.ts. */
    body: t.Unknown(),
  }),
  verification: t.Object({
    hash_valid: t.Boolean(),
    signature_valid: t.Boolean(),
    link_valid: t.Boolean(),
    record_matches_body: t.Boolean(),
    reproducible: t.Union([t.Boolean(), t.Null()]),
    reproduction: t.Object({
      answer_matches: t.Union([t.Boolean(), t.Null()]),
      factor_versions_match: t.Union([t.Boolean(), t.Null()]),
      detail: t.String(),
    }),
    problems: t.Array(t.String()),
  }),
});
export type ReceiptTrace = Static<typeof ReceiptTraceSchema>;

export interface TraceDeps {
  db: Db;
  reference: ReferenceData;
  skills: () => readonly AnySkill[];
}

/** The full provenance of one receipt: what was asked, from which figures, under which grant, and what still checks out. */
export function receiptTrace(deps: TraceDeps, { row, body }: OwnReceipt): ReceiptTrace {
  const check = checkStoredReceipt(deps.db, row);
  const reproduction = body
    ? replay(body, deps.skills(), deps.reference)
    : notReplayed(false, "The stored body is not readable JSON.");
  const factorVersions = body?.factor_versions ?? [];
  const { reproducible, reproducedAnswer, ...reproductionDetail } = reproduction;

  return {
    report_type: "RECEIPT_TRACE",
    receipt_id: row.id,
    skill: row.skill,
    model_version: body?.model_version ?? null,
    timestamps: { issued_at: new Date(row.issuedAt).toISOString(), as_of: body?.as_of ?? null, known_at: body?.known_at ?? null },
    authorization: { auth_obj_id: row.authObjId, account_id: row.accountId, tier: row.tier, scopes: body?.scopes ?? null },
    request: body?.request ?? null,
    response_sha256: body?.response_sha256 ?? null,
    reproduced_response: reproducedAnswer ?? null,
    data_sources: factorVersions.map((factor) => dataSourceOf(deps.db, factor)),
    factor_versions: factorVersions,
    chain: { seq: row.seq, prev_hash: row.prevHash, hash: row.hash, signature: row.signature, kid: row.kid, algorithm: "Ed25519", body: body ?? row.body },
    verification: {
      hash_valid: check.hash_valid,
      signature_valid: check.signature_valid,
      link_valid: check.link_valid,
      record_matches_body: check.record_matches_body,
      reproducible,
      reproduction: reproductionDetail,
      problems: check.problems,
    },
  };
}

interface StoredObservation {
  value: number;
  fetchedAt: number;
  source: string;
  fileName: string;
  importedAt: number;
  retractedAt: number | null;
  retractionReason: string | null;
}

function dataSourceOf(db: Db, factor: FactorVersion): Static<typeof DataSourceSchema> {
  const stored = db.$client
    .query<StoredObservation, [string, string, string]>(
      `SELECT o.value, o.fetched_at AS fetchedAt, i.source, i.file_name AS fileName, i.imported_at AS importedAt,
              r.retracted_at AS retractedAt, r.reason AS retractionReason
         FROM observations o JOIN data_imports i ON i.id = o.import_id
         LEFT JOIN data_retractions r ON r.import_id = o.import_id
        WHERE o.series_id = ? AND o.observed_on = ? AND o.import_id = ?`,
    )
    .get(factor.series_id, factor.observation_date, factor.import_id);
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    ...factor,
    source: stored?.source ?? null,
    file_name: stored?.fileName ?? null,
    fetched_at: iso(stored?.fetchedAt),
    imported_at: iso(stored?.importedAt),
    matches_stored_observation: stored != null && stored.value === factor.value,
    retraction: stored?.retractedAt != null ? { retracted_at: iso(stored.retractedAt)!, reason: stored.retractionReason! } : null,
  };
}
