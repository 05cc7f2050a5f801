import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { and, eq } from "drizzle-orm";
import type { Store } from "../../db/client.ts";
import type { FactorVersion } from "../../receipts/format.ts";
import type { SkillInstance } from "../types.ts";
import type { OwnReceipt } from "../../receipts/store.ts";
import { factorVersionSchema } from "../schema-kit.ts";
import { notReplayed, replay } from "./replay.ts";
import { receiptProof, ReceiptProofSchema } from "../../receipts/log/receipt-proof.ts";
import { auditCheckpointProblems, checkStoredReceipt } from "../../receipts/verify.ts";
import { rootHash } from "../../receipts/log/merkle.ts";

const DataSourceSchema = Type.Object({
  ...factorVersionSchema.properties,
  /** The import's source (eia, bls, fred, ams, fmcsa, snapshot); null when the observation is not stored. */
  source: Type.Union([Type.String(), Type.Null()]),
  file_name: Type.Union([Type.String(), Type.Null()]),
  fetched_at: Type.Union([Type.String(), Type.Null()]),
  imported_at: Type.Union([Type.String(), Type.Null()]),
  /** The stored observation (series, date, import) exists and holds the recorded value. */
  matches_stored_observation: Type.Boolean(),
  /** Set when an operator retracted the import later (`waybill data retract`); the receipt keeps its figures. */
  retraction: Type.Union([Type.Object({ retracted_at: Type.String(), reason: Type.String() }), Type.Null()]),
});

export const ReceiptTraceSchema = Type.Object({
  report_type: Type.Literal("RECEIPT_TRACE"),
  receipt_id: Type.String(),
  skill: Type.String(),
  model_version: Type.Union([Type.String(), Type.Null()]),
  timestamps: Type.Object({
    issued_at: Type.String(),
    as_of: Type.Union([Type.String(), Type.Null()]),
    known_at: Type.Union([Type.String(), Type.Null()]),
  }),
  authorization: Type.Object({
    auth_obj_id: Type.String(),
    account_id: Type.String(),
    tier: Type.String(),
    scopes: Type.Union([Type.Array(Type.String()), Type.Null()]),
  }),
  request: Type.Unknown(),
  /** The signed digest of the answer; the receipt does not keep the answer itself. */
  response_sha256: Type.Union([Type.String(), Type.Null()]),
  /** The answer re-computed from the request and the pinned data; its digest is checked in `verification`. Null when not re-run. */
  reproduced_response: Type.Unknown(),
  data_sources: Type.Array(DataSourceSchema),
  factor_versions: Type.Array(factorVersionSchema),
  /** The receipt as a leaf of the transparency log, with what proves it (docs/receipts.md). */
  log: Type.Object({
    ...ReceiptProofSchema.properties,
    /** The hashed record itself: leaf_entry = SHA-256(JCS(receipt)). Feed this report to `waybill verify`. */
    receipt: Type.Unknown(),
    /** Receipts written before the log (waybill.receipt/2) also carry their chain link and own signature. */
    legacy: Type.Union([
      Type.Object({
        seq: Type.Integer(),
        prev_hash: Type.String(),
        signature: Type.String(),
        kid: Type.String(),
        algorithm: Type.Literal("Ed25519"),
      }),
      Type.Null(),
    ]),
  }),
  verification: Type.Object({
    hash_valid: Type.Boolean(),
    /** The inclusion proof leads from the leaf to the root of the checkpoint, a valid signed note the database still holds. */
    included: Type.Boolean(),
    /** Legacy receipts only (null otherwise): their own signature and chain link. */
    signature_valid: Type.Union([Type.Boolean(), Type.Null()]),
    link_valid: Type.Union([Type.Boolean(), Type.Null()]),
    record_matches_body: Type.Boolean(),
    reproducible: Type.Union([Type.Boolean(), Type.Null()]),
    reproduction: Type.Object({
      answer_matches: Type.Union([Type.Boolean(), Type.Null()]),
      factor_versions_match: Type.Union([Type.Boolean(), Type.Null()]),
      detail: Type.String(),
    }),
    problems: Type.Array(Type.String()),
  }),
});
export type ReceiptTrace = Static<typeof ReceiptTraceSchema>;

/** The full provenance of one receipt: what was asked, from which figures, under which grant, and what still checks out. */
export async function receiptTrace(deps: SkillInstance, { row, body }: OwnReceipt): Promise<ReceiptTrace> {
  const check = await checkStoredReceipt(deps.db, row);
  // Catch up with checkpoints other replicas signed (a receipt another replica answered), then read the tiles the proof needs.
  await deps.log.follow();
  const located = await deps.log.reading(() => receiptProof(deps.log, row));
  const checkpointProblems = located
    ? await auditCheckpointProblems(deps.db, row.seq, located.checkpoint, async (size) =>
        size > deps.log.size ? null : await deps.log.reading(() => rootHash(deps.log.nodes(), size)),
      )
    : [];
  const included = (located?.included ?? false) && checkpointProblems.length === 0;
  const problems = [
    ...check.problems,
    ...(located === null
      ? ["no signed checkpoint covers this receipt"]
      : located.included
        ? []
        : ["the inclusion proof does not lead to the checkpoint's root"]),
    ...checkpointProblems,
  ];
  const reproduction = body ? await replay(body, deps) : notReplayed(false, "The stored body is not readable JSON.");
  // An edited row may rebuild a body whose factor list is something else: only well-formed entries are looked up.
  const factorVersions = (Array.isArray(body?.factor_versions) ? body.factor_versions : []).filter((factor) =>
    Value.Check(factorVersionSchema, factor),
  );
  const dataSources = await Promise.all(factorVersions.map((factor) => dataSourceOf(deps.db, factor)));
  const { reproducible, reproducedAnswer, ...reproductionDetail } = reproduction;

  return {
    report_type: "RECEIPT_TRACE",
    receipt_id: row.id,
    skill: row.skill,
    model_version: body?.model_version ?? null,
    timestamps: {
      issued_at: new Date(row.issuedAt).toISOString(),
      as_of: body?.as_of ?? null,
      known_at: body?.known_at ?? null,
    },
    authorization: {
      auth_obj_id: row.authObjId,
      account_id: row.accountId,
      tier: row.tier,
      scopes: body?.scopes ?? null,
    },
    request: body?.request ?? null,
    response_sha256: body?.response_sha256 ?? null,
    reproduced_response: reproducedAnswer ?? null,
    data_sources: dataSources,
    factor_versions: factorVersions,
    log: {
      ...(located?.proof ?? {
        log_index: row.seq - 1,
        leaf_entry: row.hash,
        tree_size: 0,
        inclusion_proof: [],
        checkpoint: "",
      }),
      receipt: body ?? row.body,
      legacy:
        row.prevHash !== null && row.signature !== null && row.kid !== null
          ? { seq: row.seq, prev_hash: row.prevHash, signature: row.signature, kid: row.kid, algorithm: "Ed25519" }
          : null,
    },
    verification: {
      hash_valid: check.hash_valid,
      included,
      signature_valid: check.signature_valid,
      link_valid: check.link_valid,
      record_matches_body: check.record_matches_body,
      reproducible,
      reproduction: reproductionDetail,
      problems,
    },
  };
}

/** The stored observation a factor version names, with its import and any retraction of it. */
async function dataSourceOf(store: Store, factor: FactorVersion): Promise<Static<typeof DataSourceSchema>> {
  const { observations: o, dataImports: i, dataRetractions: r } = store.t;
  // The import is joined as one part and the retraction as another: drizzle gives a left-joined part as null when there is none.
  const [stored] = await store
    .select({
      observation: { value: o.value, fetchedAt: o.fetchedAt },
      dataImport: { source: i.source, fileName: i.fileName, importedAt: i.importedAt },
      retraction: { at: r.retractedAt, reason: r.reason },
    })
    .from(o)
    .innerJoin(i, eq(i.id, o.importId))
    .leftJoin(r, eq(r.importId, o.importId))
    .where(
      and(
        eq(o.seriesId, factor.series_id),
        eq(o.observedOn, factor.observation_date),
        eq(o.importId, factor.import_id),
      ),
    );
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    ...factor,
    source: stored?.dataImport.source ?? null,
    file_name: stored?.dataImport.fileName ?? null,
    fetched_at: iso(stored?.observation.fetchedAt),
    imported_at: iso(stored?.dataImport.importedAt),
    matches_stored_observation: stored !== undefined && stored.observation.value === factor.value,
    retraction: stored?.retraction
      ? { retracted_at: new Date(stored.retraction.at).toISOString(), reason: stored.retraction.reason }
      : null,
  };
}
