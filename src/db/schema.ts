import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** All times are integer milliseconds since the Unix epoch (UTC); dates are ISO `YYYY-MM-DD` text. */

/** The account a row belongs to. */
const accountIdColumn = () =>
  text("account_id")
    .notNull()
    .references(() => accounts.id);
/** The key a row was made under. */
const keyIdColumn = () =>
  text("key_id")
    .notNull()
    .references(() => apiKeys.id);

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(), // acct_<ulid>
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash"), // argon2id (Bun.password); null until a password is set
  tier: text("tier", { enum: ["explorer", "starter", "professional", "enterprise"] })
    .notNull()
    .default("explorer"),
  isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
  /** Set when an admin disabled the account: no sign-in, no key, no password link until enabled again. */
  disabledAt: integer("disabled_at"),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(), // key_<ulid>
    accountId: accountIdColumn(),
    /** SHA-256 hex of the full key; the key itself is never stored. */
    digest: text("digest").notNull().unique(),
    displayId: text("display_id").notNull(), // wbk_ + first 8 hex + "…"
    /** The authorization object (key grant) every call under this key runs as: auth_obj_<ulid>. */
    authObjId: text("auth_obj_id").notNull().unique(),
    /** JSON array of scope names; null means every skill the tier allows. */
    scopes: text("scopes", { mode: "json" }).$type<string[] | null>(),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
    /**
     * Start of the newest answered call made with the key, written once per group-commit batch
     * (src/metering/key-use.ts); refusals are found in usage_events. Null before its first answer.
     */
    lastAnsweredAt: integer("last_answered_at"),
  },
  (t) => [
    // One active key per account, enforced by the database itself.
    uniqueIndex("api_keys_one_active").on(t.accountId).where(sql`revoked_at IS NULL`),
  ],
);

/** Answered (2xx) calls per account per calendar month in UTC (`YYYY-MM`). */
export const monthlyUsage = sqliteTable(
  "monthly_usage",
  {
    accountId: accountIdColumn(),
    month: text("month").notNull(),
    answered: integer("answered").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);

/**
 * One row per refused authenticated skill call, and per answered call made before migration 0008:
 * since then an answered call's usage is carried by its receipt row (docs/performance.md, "One row
 * per answered call").
 */
export const usageEvents = sqliteTable(
  "usage_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    requestId: text("request_id").notNull(),
    accountId: accountIdColumn(),
    keyId: keyIdColumn(),
    skill: text("skill").notNull(),
    status: integer("status").notNull(),
    latencyMs: real("latency_ms").notNull(),
    receiptId: text("receipt_id"),
  },
  (t) => [index("usage_events_account_at").on(t.accountId, t.at), index("usage_events_key_at").on(t.keyId, t.at)],
);

/** Ed25519 keys that sign receipts. The private key never leaves this table. */
export const signingKeys = sqliteTable("signing_keys", {
  kid: text("kid").primaryKey(), // first 16 hex of SHA-256 over the raw public key
  publicKey: text("public_key").notNull(), // base64url raw 32 bytes
  privateKey: text("private_key").notNull(), // base64url PKCS#8
  createdAt: integer("created_at").notNull(),
});

/**
 * Every receipt, one leaf of the transparency log (docs/receipts.md): log index = seq - 1, and the
 * leaf entry is `hash`, the 32-byte SHA-256 of the receipt's canonical body. The body is not stored
 * as text: it is rebuilt, byte for byte, from these columns and the shared `receipt_parts` they name
 * (src/receipts/compact-body.ts). `body` holds the text only for a receipt that cannot be rebuilt so
 * (the older hash-chained format waybill.receipt/2, with its prev_hash, signature and kid).
 */
export const receipts = sqliteTable(
  "receipts",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(), // rcpt_<ulid>
    issuedAt: integer("issued_at").notNull(),
    skill: text("skill").notNull(),
    accountId: accountIdColumn(),
    /** receipt_parts ids (no foreign key: `receipts verify` finds a missing part): key grant, request, factors, model version. */
    principalPart: integer("principal_part"),
    requestPart: integer("request_part"),
    factorsPart: integer("factors_part"),
    modelPart: integer("model_part"),
    asOf: text("as_of"),
    knownAt: integer("known_at"),
    responseSha256: blob("response_sha256", { mode: "buffer" }),
    body: text("body"),
    prevHash: text("prev_hash"),
    // Not unique-indexed: seq is the primary key, so a second append at the same place fails anyway,
    // and an index on a random hash costs a random page write per answer.
    hash: blob("hash", { mode: "buffer" }).notNull(),
    signature: text("signature"),
    kid: text("kid").references(() => signingKeys.kid),
    /** The request's lane (origin and destination, trimmed and lower-cased) when it names one: LANE_HISTORY's index. */
    lane: text("lane"),
    /**
     * The answered call's usage (docs/performance.md, "One row per answered call"): its request id,
     * the key it was made with and its latency; its time is known_at and its status 200. Null on
     * receipts issued before migration 0008, whose usage rows stay in usage_events. No foreign key on
     * key_id: the key is the one the signed principal part names, and the check would cost a lookup per answer.
     */
    requestId: text("request_id"),
    keyId: text("key_id"),
    latencyMs: real("latency_ms"),
  },
  (t) => [
    index("receipts_account_lane_issued").on(t.accountId, t.lane, t.issuedAt),
    // The usage reports' and the dashboard's account + time index for answered calls.
    index("receipts_account_known").on(t.accountId, t.knownAt).where(sql`request_id IS NOT NULL`),
  ],
);

/** One row per load of reference figures: the embedded snapshot or an operator's `data import`. */
export const dataImports = sqliteTable("data_imports", {
  id: text("id").primaryKey(), // imp_<ulid>, or imp_snapshot_<version> for the embedded snapshot
  source: text("source").notNull(), // eia | fred | bls | ams | fmcsa | snapshot
  fileName: text("file_name").notNull(),
  fileSha256: text("file_sha256").notNull(),
  importedAt: integer("imported_at").notNull(),
  rowsAdded: integer("rows_added").notNull(),
  rowsSkipped: integer("rows_skipped").notNull(),
});

/** Append-only observations. A newer import of the same date adds a row; it never overwrites. */
export const observations = sqliteTable(
  "observations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    seriesId: text("series_id").notNull(),
    observedOn: text("observed_on").notNull(),
    value: real("value").notNull(),
    importId: text("import_id")
      .notNull()
      .references(() => dataImports.id),
    fetchedAt: integer("fetched_at").notNull(),
    /** The day the figure was first public (docs/data-sources.md); null only on rows stored before it was recorded. */
    publishedOn: text("published_on"),
  },
  (t) => [
    uniqueIndex("observations_series_date_import").on(t.seriesId, t.observedOn, t.importId),
    index("observations_series_date").on(t.seriesId, t.observedOn),
  ],
);

/** Dashboard sessions; the cookie carries a random token, the table only its SHA-256. */
export const sessions = sqliteTable("sessions", {
  digest: text("digest").primaryKey(),
  accountId: accountIdColumn(),
  createdAt: integer("created_at").notNull(),
  lastSeenAt: integer("last_seen_at").notNull(),
  expiresAt: integer("expires_at").notNull(), // absolute expiry
});

/** Instance-wide values: the one-time setup token digest, the CSRF secret. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** `waybill data retract`: an import hidden from every view known at or after `retracted_at`. */
export const dataRetractions = sqliteTable("data_retractions", {
  importId: text("import_id")
    .primaryKey()
    .references(() => dataImports.id),
  reason: text("reason").notNull(),
  retractedAt: integer("retracted_at").notNull(),
});

/**
 * Road networks imported with `waybill data import roads FILE`, in Waybill's network format
 * (src/reference/roads/format.ts). A lookup uses the newest one imported by the time its data view is
 * known at, else the embedded Interstate network; answers name the version that priced them.
 */
export const roadNetworks = sqliteTable("road_networks", {
  version: text("version").primaryKey(),
  fileName: text("file_name").notNull(),
  fileSha256: text("file_sha256").notNull(),
  importedAt: integer("imported_at").notNull(),
  network: text("network").notNull(), // JSON
  /** A new network is "staged" with its validation report and prices nothing until promoted; older rows were live. */
  status: text("status").notNull().default("promoted"),
  /** When it was promoted (null for a network stored before staging existed: it priced from imported_at). */
  promotedAt: integer("promoted_at"),
  /** The validation report (JSON), for a network imported since staging. */
  report: text("report"),
  retractedAt: integer("retracted_at"),
  retractionReason: text("retraction_reason"),
});

/**
 * What happened to an account and who did it (docs/operations.md, "Account audit log"): sign-ins,
 * keys created and revoked, tier and password changes. `actor` is "cli" or the account id of the
 * dashboard user who acted; `detail` never holds a secret (a key's display id at most).
 */
export const accountAudit = sqliteTable(
  "account_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    accountId: accountIdColumn(),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    detail: text("detail"),
  },
  (table) => [index("account_audit_at").on(table.at), index("account_audit_account_at").on(table.accountId, table.at)],
);

/**
 * Full C2SP tlog-tiles hash tiles of the receipt log: 256 hashes of 32 bytes, written in the
 * transaction that completes them and never changed. Partial tiles are computed from memory.
 */
export const logTiles = sqliteTable(
  "log_tiles",
  {
    level: integer("level").notNull(),
    idx: integer("idx").notNull(),
    hashes: blob("hashes", { mode: "buffer" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.idx] })],
);

/** One signed tlog checkpoint per group-commit batch (the note as served), kept for consistency proofs. */
export const logCheckpoints = sqliteTable("log_checkpoints", {
  treeSize: integer("tree_size").primaryKey(),
  rootHash: text("root_hash").notNull(), // lowercase hex
  kid: text("kid")
    .notNull()
    .references(() => signingKeys.kid),
  note: text("note").notNull(),
  signedAt: integer("signed_at").notNull(),
});

/**
 * Answers given under an `Idempotency-Key` (docs/api.md): a retry within 24 hours gets the stored
 * answer back instead of a second call. Written in the answer's own transaction.
 */
export const idempotentAnswers = sqliteTable(
  "idempotent_answers",
  {
    accountId: accountIdColumn(),
    key: text("key").notNull(),
    skill: text("skill").notNull(),
    /** SHA-256 of the skill name and the canonical request, to tell a retry from a different request. */
    requestSha256: text("request_sha256").notNull(),
    /** The answer as sent: the skill's answer with receipt_id and auth_obj_id. */
    body: text("body").notNull(),
    receiptId: text("receipt_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotent_answers_created").on(t.createdAt)],
);

/** Per-account event log, append-only (docs/alerts-and-webhooks.md). `seq` orders it and is the list cursor. */
export const events = sqliteTable(
  "events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(), // evt_<ulid>
    accountId: accountIdColumn(),
    type: text("type").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("events_account_seq").on(t.accountId, t.seq)],
);

/** Where an account's events are POSTed. The secret signs deliveries, so it is kept (shown to the holder once). */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(), // wh_<ulid>
    accountId: accountIdColumn(),
    url: text("url").notNull(),
    /** Event types delivered here; an empty list means every type. */
    eventTypes: text("event_types", { mode: "json" }).$type<string[]>().notNull(),
    secret: text("secret").notNull(), // whsec_<base64>
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** First failed attempt since the last success; the endpoint is disabled when this is days old. */
    failingSince: integer("failing_since"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_endpoints_account").on(t.accountId)],
);

/** The outbox: one row per (event, endpoint), written in the event's transaction; `id` is the `webhook-id`. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(), // msg_<ulid>
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due; null once delivered or given up. */
    nextAttemptAt: integer("next_attempt_at"),
    lastAttemptAt: integer("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt),
  ],
);

/** Threshold alerts on a lane's price or on diesel (docs/alerts-and-webhooks.md). */
export const alerts = sqliteTable(
  "alerts",
  {
    id: text("id").primaryKey(), // alrt_<ulid>
    accountId: accountIdColumn(),
    name: text("name").notNull(),
    /** The watched figure: a lane metric, a region's weekly diesel, or its week-over-week change. */
    condition: text("condition", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    direction: text("direction", { enum: ["ABOVE", "BELOW", "CROSSES"] }).notNull(),
    threshold: real("threshold").notNull(),
    cooldownSeconds: integer("cooldown_seconds"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** The last evaluation: its value and whether the condition held (for CROSSES, the side it was on). */
    lastValue: real("last_value"),
    lastState: text("last_state", { enum: ["above", "below", "at"] }),
    firing: integer("firing", { mode: "boolean" }).notNull().default(false),
    lastFiredAt: integer("last_fired_at"),
    lastEvaluatedAt: integer("last_evaluated_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("alerts_account_created").on(t.accountId, t.createdAt)],
);

/**
 * Canonical JSON texts that many receipts share, stored once (docs/receipts.md, "Storage"): a key
 * grant, a request, a list of factor versions, a model version. `sha256` (of `text`) finds one again.
 */
export const receiptParts = sqliteTable("receipt_parts", {
  id: integer("id").primaryKey(),
  sha256: blob("sha256", { mode: "buffer" }).notNull().unique(),
  text: text("text").notNull(),
});

/**
 * Per key, its admitted calls of the last minute in groups, oldest first, on PostgreSQL only
 * (docs/postgresql.md, "Metering across replicas"): `calls[i]` calls admitted at or before the
 * instant `admitted[i]` (epoch ms), one group per call while the limit is at most 60 a minute and
 * one per second above, so the row stays small whatever the limit. Replicas decide admission on
 * this row under its lock. A single SQLite writer keeps its own log in memory and leaves this table
 * empty. PostgreSQL holds bigint[] and integer[] where this holds JSON arrays.
 */
export const minuteWindows = sqliteTable("minute_windows", {
  keyId: text("key_id")
    .primaryKey()
    .references(() => apiKeys.id, { onDelete: "cascade" }),
  admitted: text("admitted", { mode: "json" }).$type<number[]>().notNull(),
  calls: text("calls", { mode: "json" }).$type<number[]>().notNull().default([]),
});

/**
 * Bid sheets priced in the background (docs/batch.md): one row per sheet, submitted through
 * POST /v1/rates/batch or the dashboard, priced under the key grant that submitted it.
 */
export const batchJobs = sqliteTable(
  "batch_jobs",
  {
    id: text("id").primaryKey(), // job_<ulid>
    accountId: accountIdColumn(),
    keyId: keyIdColumn(),
    /** The submission's own receipt: status and result reads carry it. */
    receiptId: text("receipt_id").notNull(),
    /** How the sheet arrived, and so how its priced copy is offered first. */
    format: text("format", { enum: ["json", "csv", "xlsx"] }).notNull(),
    /** The uploaded file's name (dashboard), for the list of past sheets. */
    fileName: text("file_name"),
    /** The sheet's columns in their order (JSON lanes: every field named by any lane). */
    columns: text("columns", { mode: "json" }).$type<string[]>().notNull(),
    status: text("status", { enum: ["storing", "queued", "running", "done", "failed"] }).notNull(),
    total: integer("total").notNull(),
    /** Rows settled (priced or refused), committed with each row's outcome. */
    done: integer("done").notNull().default(0),
    /** Why a whole job stopped (its key was revoked meanwhile); null otherwise. */
    failure: text("failure"),
    createdAt: integer("created_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("batch_jobs_account_created").on(t.accountId, t.createdAt)],
);

/** A bid sheet's rows, in the sheet's order; `outcome` is null until the row is priced or refused. */
export const batchRows = sqliteTable(
  "batch_rows",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => batchJobs.id, { onDelete: "cascade" }),
    row: integer("row").notNull(),
    /** The row's cells as uploaded, by column name. */
    cells: text("cells", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    outcome: text("outcome", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.row] })],
);
