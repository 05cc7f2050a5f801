import type { KeyIndex } from "../access/key-index.ts";
import type { BatchService } from "../batch/service.ts";
import type { Clock } from "../clock.ts";
import type { PipelineDeps } from "../pipeline/run-skill.ts";
import type { Store } from "../db/client.ts";
import type { LimitsTable } from "../metering/limits.ts";
import type { Meter } from "../metering/meter.ts";
import type { ReceiptLog } from "../receipts/log/log.ts";
import type { SeriesFreshness } from "../reference/series/freshness.ts";
import type { ReferenceData } from "../reference/storage/view.ts";
import type { SkillCatalog } from "../skills/catalog.ts";
import type { AnySkill } from "../skills/types.ts";
import type { TargetPolicy } from "../webhooks/target-policy.ts";

/** What the dashboard needs from the running instance; the lead's Runtime satisfies it structurally. */
export interface DashboardDeps {
  db: Store;
  clock: Clock;
  limits: LimitsTable;
  /** Read-only here: where the active key's minute window and the account's month stand. */
  meter: Pick<Meter, "windows">;
  /** For the receipt viewer's audit provenance (re-running a skill on the recorded factors). */
  reference: ReferenceData;
  skills: readonly AnySkill[];
  /** The receipt log, for the viewer's inclusion proof. */
  ledger: { log: ReceiptLog };
  /** Which webhook URLs the instance accepts (`--allow-private-webhooks`). */
  webhookPolicy: Pick<TargetPolicy, "allowPrivate">;
  /** The scope picker, /pricing and the receipt page's audit gate read the served skills' tiers here. */
  catalog: SkillCatalog;
  /** The admin page's reference-data table: each series' newest figure and whether it is overdue. */
  dataFreshness(): SeriesFreshness[];
  /** Key grants by key id: the pricing pages run under the account's active key. */
  keys: KeyIndex;
  /** The pipeline the price-a-lane page calls rate-lookup and rate-forecast through, metered and receipted. */
  pipeline: PipelineDeps;
  /** Bid sheets, the same jobs as POST /v1/rates/batch. */
  batches: BatchService;
}

export interface DashboardOptions {
  /**
   * Believe X-Forwarded-Proto / X-Forwarded-For from a reverse proxy in front of the binary.
   * Off by default: a direct client could otherwise forge its address (dodging the sign-in
   * throttle) or make the server believe it speaks HTTPS.
   */
  trustProxy?: boolean;
  /**
   * Where users reach the service (`--public-url`), when a proxy stands in front: an https URL makes
   * the session cookie Secure (`__Host-`) whatever the proxy forwards, and a form posted from this
   * origin is same-site even when the proxy rewrites Host.
   */
  publicUrl?: URL;
}
