import type { Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { log } from "./log.ts";

/** A step back smaller than this is ordinary NTP slewing and is not worth a log line. */
const NOTEWORTHY_STEP_MS = 1000;

/**
 * The server's clock: the wall clock, but never earlier than anything the instance already
 * recorded (the newest receipt, the newest import) nor than its own last reading. A wall clock
 * that steps back (a VM restored, NTP correcting a fast clock) would otherwise make a receipt's
 * issue time run backwards against its sequence number, and a call after a restart would not see
 * data imported "in its future" (every call a misleading 400). While the wall clock is behind,
 * time stands still at the floor, and the step is logged once.
 */
export class MonotonicClock implements Clock {
  private last: number;
  private behind = false;

  constructor(
    private readonly wall: Clock,
    floor = 0,
  ) {
    this.last = floor;
  }

  now(): number {
    const wall = this.wall.now();
    if (wall >= this.last) {
      if (this.behind) log.info("clock_caught_up", { wall_clock: new Date(wall).toISOString() });
      this.behind = false;
      this.last = wall;
      return wall;
    }
    if (!this.behind && this.last - wall >= NOTEWORTHY_STEP_MS) {
      this.behind = true;
      log.warn("clock_stepped_back", {
        wall_clock: new Date(wall).toISOString(),
        using: new Date(this.last).toISOString(),
        behind_ms: this.last - wall,
      });
    }
    return this.last;
  }
}

/** The newest instant the database already holds: receipts issued and data imported. */
export function newestRecordedInstant(db: Db): number {
  const row = db.$client
    .query<{ at: number | null }, []>(
      `SELECT max(at) AS at FROM (SELECT max(issued_at) AS at FROM receipts
         UNION ALL SELECT max(imported_at) FROM data_imports UNION ALL SELECT max(fetched_at) FROM observations)`,
    )
    .get();
  return row?.at ?? 0;
}
