import { KeyIndex } from "./access/key-index.ts";
import type { Clock } from "./clock.ts";
import { ChangeWatcher } from "./db/changes.ts";
import type { Db } from "./db/client.ts";
import { createMetrics, type Metrics } from "./http/metrics.ts";
import { createMeter } from "./metering/create-meter.ts";
import { GroupCommitter } from "./db/group-commit.ts";
import type { LimitsTable } from "./metering/limits.ts";
import { createUsageLog } from "./metering/usage-log.ts";
import { createReceiptLedger } from "./receipts/chain.ts";
import { createReferenceData } from "./reference/index.ts";
import type { PipelineDeps } from "./pipeline/run-skill.ts";
import { SkillCatalog } from "./skills/catalog.ts";
import { SKILLS } from "./skills/registry.ts";
import type { AnySkill } from "./skills/types.ts";

export interface RuntimeOptions {
  db: Db;
  clock: Clock;
  limits: LimitsTable;
  /** The skills to serve; every registered one unless a test adds its own. */
  skills?: readonly AnySkill[];
}

/** Everything a running Waybill holds, built once from one database: the composition root. */
export interface Runtime extends PipelineDeps {
  limits: LimitsTable;
  /** The scope list and tier table of the skills served (plus the announced ones). */
  catalog: SkillCatalog;
  metrics: Metrics;
  ledger: ReturnType<typeof createReceiptLedger>;
  reference: ReturnType<typeof createReferenceData>;
  /** Flush buffered usage rows and stop timers; the caller closes the database. */
  close(): void;
}

export function createRuntime({ db, clock, limits, skills = SKILLS }: RuntimeOptions): Runtime {
  const reference = createReferenceData(db);
  reference.loadSnapshot(clock.now());
  const keys = new KeyIndex(db);
  const meter = createMeter({ db, limits });
  const usage = createUsageLog(db);
  const ledger = createReceiptLedger(db, clock);
  const watcher = new ChangeWatcher(db);

  const committer = new GroupCommitter(db);

  return {
    db,
    clock,
    limits,
    keys,
    committer,
    meter,
    usage,
    ledger,
    reference,
    skills,
    catalog: new SkillCatalog(skills),
    metrics: createMetrics(),
    refreshCaches() {
      const changed = watcher.poll();
      if (changed.local || changed.external) keys.reload();
      if (changed.external) {
        // Another process committed: maybe a revoke or tier change (above), a month count, or an import.
        meter.invalidate();
        reference.reload();
      }
    },
    close() {
      committer.flush();
      usage.close();
    },
  };
}
