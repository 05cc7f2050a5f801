import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The schema of src/db/schema.ts in PostgreSQL's dialect, table by table and column by column
 * (test/db/schema-agreement.test.ts holds the two together). The TypeScript names are the same,
 * so a query written against one runs against the other (docs/postgresql.md).
 * Times are epoch milliseconds in bigint read as numbers; JSON columns are jsonb; the SQLite
 * integer booleans are booleans.
 */

/** epoch ms: beyond int4, well inside a double's exact integers. */
const ms = (name: string) => bigint(name, { mode: "number" });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

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

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash"),
  tier: text("tier", { enum: ["explorer", "starter", "professional", "enterprise"] })
    .notNull()
    .default("explorer"),
  isAdmin: boolean("is_admin").notNull().default(false),
  createdAt: ms("created_at").notNull(),
  disabledAt: ms("disabled_at"),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: accountIdColumn(),
    digest: text("digest").notNull().unique(),
    displayId: text("display_id").notNull(),
    authObjId: text("auth_obj_id").notNull().unique(),
    scopes: jsonb("scopes").$type<string[] | null>(),
    createdAt: ms("created_at").notNull(),
    revokedAt: ms("revoked_at"),
    lastAnsweredAt: ms("last_answered_at"),
  },
  (t) => [uniqueIndex("api_keys_one_active").on(t.accountId).where(sql`revoked_at IS NULL`)],
);

export const monthlyUsage = pgTable(
  "monthly_usage",
  {
    accountId: accountIdColumn(),
    month: text("month").notNull(),
    answered: integer("answered").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);

export const usageEvents = pgTable(
  "usage_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    at: ms("at").notNull(),
    requestId: text("request_id").notNull(),
    accountId: accountIdColumn(),
    keyId: keyIdColumn(),
    skill: text("skill").notNull(),
    status: integer("status").notNull(),
    latencyMs: doublePrecision("latency_ms").notNull(),
    receiptId: text("receipt_id"),
  },
  (t) => [index("usage_events_account_at").on(t.accountId, t.at), index("usage_events_key_at").on(t.keyId, t.at)],
);

export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  publicKey: text("public_key").notNull(),
  privateKey: text("private_key").notNull(),
  createdAt: ms("created_at").notNull(),
});

export const receipts = pgTable(
  "receipts",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique(),
    issuedAt: ms("issued_at").notNull(),
    skill: text("skill").notNull(),
    accountId: accountIdColumn(),
    principalPart: bigint("principal_part", { mode: "number" }),
    requestPart: bigint("request_part", { mode: "number" }),
    factorsPart: bigint("factors_part", { mode: "number" }),
    modelPart: bigint("model_part", { mode: "number" }),
    asOf: text("as_of"),
    knownAt: ms("known_at"),
    responseSha256: bytea("response_sha256"),
    body: text("body"),
    prevHash: text("prev_hash"),
    hash: bytea("hash").notNull(),
    signature: text("signature"),
    kid: text("kid").references(() => signingKeys.kid),
    lane: text("lane"),
    requestId: text("request_id"),
    keyId: text("key_id"),
    latencyMs: doublePrecision("latency_ms"),
  },
  (t) => [
    index("receipts_account_lane_issued").on(t.accountId, t.lane, t.issuedAt),
    index("receipts_account_known").on(t.accountId, t.knownAt).where(sql`request_id IS NOT NULL`),
  ],
);

export const dataImports = pgTable("data_imports", {
  id: text("id").primaryKey(),
  source: text("source").notNull(),
  fileName: text("file_name").notNull(),
  fileSha256: text("file_sha256").notNull(),
  importedAt: ms("imported_at").notNull(),
  rowsAdded: integer("rows_added").notNull(),
  rowsSkipped: integer("rows_skipped").notNull(),
});

export const observations = pgTable(
  "observations",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    seriesId: text("series_id").notNull(),
    observedOn: text("observed_on").notNull(),
    value: doublePrecision("value").notNull(),
    importId: text("import_id")
      .notNull()
      .references(() => dataImports.id),
    fetchedAt: ms("fetched_at").notNull(),
    publishedOn: text("published_on"),
  },
  (t) => [
    uniqueIndex("observations_series_date_import").on(t.seriesId, t.observedOn, t.importId),
    index("observations_series_date").on(t.seriesId, t.observedOn),
  ],
);

export const sessions = pgTable("sessions", {
  digest: text("digest").primaryKey(),
  accountId: accountIdColumn(),
  createdAt: ms("created_at").notNull(),
  lastSeenAt: ms("last_seen_at").notNull(),
  expiresAt: ms("expires_at").notNull(),
});

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const dataRetractions = pgTable("data_retractions", {
  importId: text("import_id")
    .primaryKey()
    .references(() => dataImports.id),
  reason: text("reason").notNull(),
  retractedAt: ms("retracted_at").notNull(),
});

export const roadNetworks = pgTable("road_networks", {
  version: text("version").primaryKey(),
  fileName: text("file_name").notNull(),
  fileSha256: text("file_sha256").notNull(),
  importedAt: ms("imported_at").notNull(),
  network: text("network").notNull(),
  /** A new network is "staged" with its validation report and prices nothing until promoted; older rows were live. */
  status: text("status").notNull().default("promoted"),
  /** When it was promoted (null for a network stored before staging existed: it priced from imported_at). */
  promotedAt: ms("promoted_at"),
  /** The validation report (JSON), for a network imported since staging. */
  report: text("report"),
  retractedAt: ms("retracted_at"),
  retractionReason: text("retraction_reason"),
});

export const accountAudit = pgTable(
  "account_audit",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    at: ms("at").notNull(),
    accountId: accountIdColumn(),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    detail: text("detail"),
  },
  (table) => [index("account_audit_at").on(table.at), index("account_audit_account_at").on(table.accountId, table.at)],
);

export const logTiles = pgTable(
  "log_tiles",
  {
    level: integer("level").notNull(),
    idx: bigint("idx", { mode: "number" }).notNull(),
    hashes: bytea("hashes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.idx] })],
);

export const logCheckpoints = pgTable("log_checkpoints", {
  treeSize: bigint("tree_size", { mode: "number" }).primaryKey(),
  rootHash: text("root_hash").notNull(),
  kid: text("kid")
    .notNull()
    .references(() => signingKeys.kid),
  note: text("note").notNull(),
  signedAt: ms("signed_at").notNull(),
});

export const idempotentAnswers = pgTable(
  "idempotent_answers",
  {
    accountId: accountIdColumn(),
    key: text("key").notNull(),
    skill: text("skill").notNull(),
    requestSha256: text("request_sha256").notNull(),
    body: text("body").notNull(),
    receiptId: text("receipt_id").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotent_answers_created").on(t.createdAt)],
);

export const events = pgTable(
  "events",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    id: text("id").notNull().unique(),
    accountId: accountIdColumn(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("events_account_seq").on(t.accountId, t.seq)],
);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    accountId: accountIdColumn(),
    url: text("url").notNull(),
    eventTypes: jsonb("event_types").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    failingSince: ms("failing_since"),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("webhook_endpoints_account").on(t.accountId)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ms("next_attempt_at"),
    lastAttemptAt: ms("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt),
  ],
);

export const alerts = pgTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    accountId: accountIdColumn(),
    name: text("name").notNull(),
    condition: jsonb("condition").$type<Record<string, unknown>>().notNull(),
    direction: text("direction", { enum: ["ABOVE", "BELOW", "CROSSES"] }).notNull(),
    threshold: doublePrecision("threshold").notNull(),
    cooldownSeconds: integer("cooldown_seconds"),
    enabled: boolean("enabled").notNull().default(true),
    lastValue: doublePrecision("last_value"),
    lastState: text("last_state", { enum: ["above", "below", "at"] }),
    firing: boolean("firing").notNull().default(false),
    lastFiredAt: ms("last_fired_at"),
    lastEvaluatedAt: ms("last_evaluated_at"),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [index("alerts_account_created").on(t.accountId, t.createdAt)],
);

export const receiptParts = pgTable("receipt_parts", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
  sha256: bytea("sha256").notNull().unique(),
  text: text("text").notNull(),
});

export const minuteWindows = pgTable("minute_windows", {
  keyId: text("key_id")
    .primaryKey()
    .references(() => apiKeys.id, { onDelete: "cascade" }),
  admitted: bigint("admitted", { mode: "number" }).array().notNull(),
  calls: integer("calls").array().notNull().default([]),
});

export const batchJobs = pgTable(
  "batch_jobs",
  {
    id: text("id").primaryKey(),
    accountId: accountIdColumn(),
    keyId: keyIdColumn(),
    receiptId: text("receipt_id").notNull(),
    format: text("format", { enum: ["json", "csv", "xlsx"] }).notNull(),
    fileName: text("file_name"),
    columns: jsonb("columns").$type<string[]>().notNull(),
    status: text("status", { enum: ["storing", "queued", "running", "done", "failed"] }).notNull(),
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    failure: text("failure"),
    createdAt: ms("created_at").notNull(),
    finishedAt: ms("finished_at"),
  },
  (t) => [index("batch_jobs_account_created").on(t.accountId, t.createdAt)],
);

export const batchRows = pgTable(
  "batch_rows",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => batchJobs.id, { onDelete: "cascade" }),
    row: integer("row").notNull(),
    cells: jsonb("cells").$type<Record<string, unknown>>().notNull(),
    outcome: jsonb("outcome").$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.row] })],
);
