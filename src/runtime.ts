import { fileKeyIndex, postgresKeyIndex } from "./access/key-index.ts";
import type { Clock } from "./clock.ts";
import { watchChanges } from "./db/changes.ts";
import { engineOf } from "./db/open.ts";
import { indexedLiveness, keyRowLiveness } from "./access/key-liveness.ts";
import type { Store } from "./db/client.ts";
import { createMetrics, type Metrics } from "./http/observability/metrics.ts";
import { awaitedMeter, createMemoryMeter } from "./metering/create-meter.ts";
import { createPostgresMeter } from "./metering/postgres-meter.ts";
import { GroupCommitter } from "./db/group-commit.ts";
import type { LimitsTable } from "./metering/limits.ts";
import { createUsageLog } from "./metering/usage-log.ts";
import { postgresUsageWrites, sqliteUsageWrites } from "./metering/usage-writes.ts";
import { fileLedgerStorage, portableLedgerStorage } from "./receipts/ledger-storage.ts";
import { openReceiptLedger, type WaybillReceiptLedger } from "./receipts/receipt-ledger.ts";
import { utcDateOf } from "./dates.ts";
import { DataEvents } from "./reference/storage/data-events.ts";
import { type SeriesFreshness, seriesFreshness } from "./reference/series/freshness.ts";
import { createReferenceData } from "./reference/index.ts";
import type { PipelineDeps } from "./pipeline/run-skill.ts";
import { AlertBackground } from "./skills/rate-alerts/background.ts";
import { SkillCatalog } from "./skills/catalog.ts";
import { SKILLS } from "./skills/registry.ts";
import { log as serverLog } from "./ops/log.ts";
import { createReadiness, type ReadinessProbe, sqliteProbe, storeProbe } from "./ops/readiness.ts";
import { callName, servedDeclarations, type RegisteredSkill } from "./skills/types.ts";
import { BatchRunner } from "./batch/runner.ts";
import { BatchService } from "./batch/service.ts";
import { systemResolver, type TargetPolicy } from "./webhooks/target-policy.ts";
import { DeliveryWorker } from "./webhooks/worker.ts";

export interface RuntimeOptions {
  db: Store;
  clock: Clock;
  limits: LimitsTable;
  /** Deliver webhooks to loopback and private addresses too (`--allow-private-webhooks`). */
  allowPrivateWebhooks?: boolean;
  /** The skills to serve; every registered one unless a test adds its own. */
  skills?: readonly RegisteredSkill[];
  /** The transparency log's origin line, or the public URL it defaults from (docs/receipts.md). */
  log?: { origin?: string; publicUrl?: string };
}

/** Everything a running Waybill holds, built once from one database: the composition root. */
export interface Runtime extends PipelineDeps {
  limits: LimitsTable;
  /** The scope list and tier table of the skills served (plus the announced ones). */
  catalog: SkillCatalog;
  metrics: Metrics;
  ledger: WaybillReceiptLedger;
  reference: ReturnType<typeof createReferenceData>;
  webhookPolicy: TargetPolicy;
  /** Bid sheets as every transport takes them. */
  batches: BatchService;
  /** Prices bid sheets in the background; `serve` wakes it to resume an interrupted sheet. */
  batchRunner: BatchRunner;
  /** Sends the webhook outbox; started by `serve`. */
  webhooks: DeliveryWorker;
  /** Alert evaluation when data arrives and on a schedule; started by `serve`. */
  alertBackground: AlertBackground;
  /** A real write probe plus the outcome of recent commits: what /readyz and `serve` report. */
  readiness: ReadinessProbe;
  /** Subscribe here to react after new figures are stored (sync, or another process's import). */
  dataEvents: DataEvents;
  /** Each stored series' newest figure, cadence and whether it is overdue, as of today. */
  dataFreshness(): SeriesFreshness[];
  /** Commit what is queued, flush buffered usage rows, stop timers and listening; the caller closes the database. */
  close(): Promise<void>;
}

export async function createRuntime({
  db,
  clock,
  limits,
  skills = SKILLS,
  log,
  allowPrivateWebhooks = false,
}: RuntimeOptions): Promise<Runtime> {
  const reference = createReferenceData(db);
  await reference.loadSnapshot(clock.now());
  // Each engine's parts, picked once here (docs/architecture.md, "The storage seam").
  const engine = engineOf(db);
  const keys = engine.engine === "sqlite" ? fileKeyIndex(engine.db) : postgresKeyIndex(engine.db);
  const meter =
    engine.engine === "sqlite"
      ? awaitedMeter(createMemoryMeter({ db: engine.db, limits }))
      : createPostgresMeter({ db: engine.db, limits });
  const usage = createUsageLog(
    engine.engine === "sqlite" ? sqliteUsageWrites(engine.db) : postgresUsageWrites(engine.db),
  );
  const ledgerStorage = engine.engine === "sqlite" ? fileLedgerStorage(engine.db) : portableLedgerStorage(engine.db);
  const ledger = await openReceiptLedger(db, ledgerStorage, { clock, ...log });
  const watcher = await watchChanges(db);

  const dataFreshness = () => seriesFreshness(reference.summary(), utcDateOf(clock.now()));
  const dataEvents = new DataEvents();
  // First listener: whatever else reacts to new figures reads them through a fresh index (at once on
  // SQLite; on PostgreSQL the alert evaluation it schedules runs after the read, src/db/changes.ts).
  dataEvents.subscribe(() => void reloadReference(false));
  const metrics = createMetrics({
    seriesDates: () => reference.summary(),
    freshness: dataFreshness,
    now: () => clock.now(),
  });
  const readiness = createReadiness(engine.engine === "sqlite" ? sqliteProbe(engine.db) : storeProbe(engine.db), clock);
  const committer = new GroupCommitter(db, {
    committed(writes, seconds, failedWrites) {
      metrics.groupCommitted(writes, seconds);
      if (failedWrites === 0) readiness.commitSucceeded();
    },
    failed: (error) => readiness.commitFailed(error),
    stages: (stages) => metrics.groupCommitStages(stages),
    held: (ms) => metrics.walRestartHeld(ms),
  });
  // The month counts first: on PostgreSQL they may refuse calls past a quota, before the log signs the batch.
  if (meter.batch) committer.join(meter.batch);
  committer.join(ledger.log);
  committer.join(ledger.parts);
  committer.join(usage.batch);

  const webhookPolicy: TargetPolicy = { allowPrivate: allowPrivateWebhooks, resolve: systemResolver };
  const webhooks = new DeliveryWorker(db, clock, webhookPolicy);

  const alertBackground = new AlertBackground(db, clock, reference, () => refreshCaches());
  // New figures (a sync, or another process's import seen below) are evaluated against the alerts soon.
  dataEvents.subscribe(() => alertBackground.dataMayHaveChanged());
  // Another process's commits are looked for once per turn of the event loop, not once per request:
  // the pragma read was ≈ 10 % of a refused call, and the requests of one turn are concurrent anyway.
  let lookedOutsideThisTurn = false;
  function refreshCaches(): void {
    const changed = watcher.poll({ external: !lookedOutsideThisTurn });
    if (!lookedOutsideThisTurn) {
      lookedOutsideThisTurn = true;
      setImmediate(() => {
        lookedOutsideThisTurn = false;
      });
    }
    if (changed.local || changed.external) keys.reload();
    if (changed.external) {
      // Another process committed: maybe a revoke or tier change (above), a month count, or an import.
      meter.invalidate();
      // A failed read (the database away) is retried on the next change, which a reconnection counts as.
      ledger.reloadSigningKey().catch((error) => serverLog.failure("signing_key_reload_failed", error));
      reloadReference(true);
    }
  }

  function reloadReference(announce: boolean): void {
    if (engine.engine === "sqlite") reloadFileReference(announce);
    else reloadPooledReference(announce);
  }
  const announceFigures = (changed: boolean, announce: boolean) => {
    if (changed && announce) dataEvents.publish({ importId: null, source: "external", added: 0, at: clock.now() });
  };
  /** On the SQLite file a reload drops changed figures before it returns (they are read on first use). */
  function reloadFileReference(announce: boolean): void {
    reference.reload().then(
      (changed) => announceFigures(changed, announce),
      (error) => serverLog.failure("reference_reload_failed", error),
    );
  }
  // On PostgreSQL a reload is a read of the database: one at a time, and another after it when asked meanwhile.
  let reloading: Promise<void> | undefined;
  let askedAgain: { announce: boolean } | undefined;
  function reloadPooledReference(announce: boolean): void {
    if (reloading) {
      askedAgain = { announce: announce || (askedAgain?.announce ?? false) };
      return;
    }
    reloading = reference
      .reload()
      .then((changed) => announceFigures(changed, announce))
      .catch((error) => serverLog.failure("reference_reload_failed", error))
      .finally(() => {
        reloading = undefined;
        const next = askedAgain;
        askedAgain = undefined;
        if (next) reloadPooledReference(next.announce);
      });
  }

  const served = servedDeclarations(skills);
  const pipeline: PipelineDeps = {
    db,
    clock,
    keys,
    confirmKeyLive: engine.engine === "sqlite" ? indexedLiveness : keyRowLiveness(engine.db),
    committer,
    meter,
    usage,
    ledger,
    log: ledger.log,
    reference,
    skills: served,
    refreshCaches,
    metrics,
  };
  const rateLookup = served.find((skill) => callName(skill) === "rate-lookup");
  if (!rateLookup) throw new Error("rate-lookup is not served: bid sheets cannot be priced");
  const batchRunner = new BatchRunner(pipeline, rateLookup);
  const batches = new BatchService(pipeline, batchRunner, rateLookup);

  const runtime: Runtime = {
    ...pipeline,
    // What the pipeline takes by its interface, the runtime holds by its own type.
    ledger,
    reference,
    metrics,
    limits,
    dataEvents,
    batches,
    batchRunner,
    webhookPolicy,
    webhooks,
    alertBackground,
    catalog: new SkillCatalog(skills),
    readiness,
    dataFreshness,
    async close() {
      webhooks.stop();
      alertBackground.stop();
      await batchRunner.stop();
      await committer.close();
      await usage.close();
      await meter.close();
      await watcher.close();
    },
  };
  return runtime;
}
