import type { Store } from "../db/client.ts";
import type { BatchParticipant } from "../db/group-commit.ts";
import type { UsageWrites } from "./usage-writes.ts";

/**
 * api_keys.last_answered_at, the start of a key's newest answered call (the dashboard's "last
 * used"), written once per group-commit batch and key instead of an index over every answered call
 * (docs/performance.md, "One row per answered call"). Joined to the group committer; a batch that
 * rolls back forgets what it noted, and the writes that run again note it again. The column only
 * moves forward, so batches of several replicas may write it in any order.
 *
 * Outside a batch (a transaction of its own: tests, tools), a call's use is written at once.
 */
export class BatchKeyUse implements BatchParticipant {
  /** Key id → the newest call start of the open batch. */
  private readonly newest = new Map<string, number>();
  private batchOpen = false;
  /** The engine's write of one key's last answered call (usage-writes.ts). */
  constructor(private readonly write: UsageWrites["setLastAnswered"]) {}

  /** An answered call made with `keyId` at `at`, inside its write transaction `tx`. */
  async answered(tx: Store, keyId: string, at: number): Promise<void> {
    if (!this.batchOpen) return this.write(tx, [[keyId, at]]);
    const noted = this.newest.get(keyId);
    if (noted === undefined || at > noted) this.newest.set(keyId, at);
  }

  batchStarted(): void {
    this.batchOpen = true;
  }

  async beforeCommit(tx: Store): Promise<void> {
    if (this.newest.size === 0) return;
    // In key order, so two transactions never wait on each other's key rows crosswise.
    const uses = [...this.newest].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return this.write(tx, uses);
  }

  afterCommit(): void {
    this.reset();
  }

  afterRollback(): void {
    this.reset();
  }

  private reset(): void {
    this.newest.clear();
    this.batchOpen = false;
  }
}
