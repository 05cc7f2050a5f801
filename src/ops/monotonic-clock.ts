import type { Clock } from "../clock.ts";
import { max } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first } from "../db/transaction.ts";
import { log } from "./log.ts";

/** A step back smaller than this is ordinary NTP slewing and is not worth a log line. */
const NOTEWORTHY_STEP_MS = 1000;

/**
 * The server's clock: the wall clock, but never earlier than anything the instance already
 * recorded (the newest receipt, the newest import) nor than its own last reading. A wall clock
 * that steps back (a VM restored, NTP correcting a fast clock) would otherwise make a receipt's
 * issue time run backwards against its sequence number, and a call after a restart would not see
 * data imported "in its future" (every call a misleading 400).
 *
 * While the wall clock is behind, the clock does not stand still: it runs on from its last reading
 * by the time that really passed (the process's monotonic clock), until the wall clock catches up.
 * So time-based limits keep their promises through the step: a per-minute window frees its calls
 * 60 real seconds after them, as its Retry-After said, not after the whole gap. The step is logged once.
 */
export class MonotonicClock implements Clock {
  /** The last reading, with the fractions of a millisecond the monotonic clock adds while behind. */
  private last: number;
  private lastElapsed: number;
  private behind = false;

  constructor(
    private readonly wall: Clock,
    floor = 0,
    /** Milliseconds from a clock that never steps (performance.now); tests pass their own. */
    private readonly elapsed: () => number = () => performance.now(),
  ) {
    this.last = floor;
    this.lastElapsed = elapsed();
  }

  now(): number {
    const wall = this.wall.now();
    const elapsed = this.elapsed();
    const ranOn = this.last + Math.max(0, elapsed - this.lastElapsed);
    this.lastElapsed = elapsed;
    if (wall >= ranOn) {
      if (this.behind) log.info("clock_caught_up", { wall_clock: new Date(wall).toISOString() });
      this.behind = false;
      this.last = wall;
      return wall;
    }
    this.last = ranOn;
    if (!this.behind && ranOn - wall >= NOTEWORTHY_STEP_MS) {
      this.behind = true;
      log.warn("clock_stepped_back", {
        wall_clock: new Date(wall).toISOString(),
        using: new Date(ranOn).toISOString(),
        behind_ms: Math.floor(ranOn - wall),
      });
    }
    return Math.floor(ranOn);
  }
}

/** The newest instant the database already holds: receipts issued and data imported. */
export async function newestRecordedInstant(db: Store): Promise<number> {
  const { receipts, dataImports, observations } = db.t;
  const newest = await Promise.all([
    first(db.select({ at: max(receipts.issuedAt) }).from(receipts)),
    first(db.select({ at: max(dataImports.importedAt) }).from(dataImports)),
    first(db.select({ at: max(observations.fetchedAt) }).from(observations)),
  ]);
  return Math.max(0, ...newest.map((row) => Number(row?.at ?? 0)));
}
