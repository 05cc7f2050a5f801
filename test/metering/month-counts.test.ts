import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { createMemoryMeter } from "../../src/metering/create-meter.ts";
import { parseLimits } from "../../src/metering/limits.ts";
import type { FileAdmission, MemoryMeter } from "../../src/metering/meter.ts";
import { seedPrincipal } from "../support/accounts.ts";
import { answeredInDb } from "./fixtures.ts";
import { defined } from "../support/defined.ts";

const NOW = Date.parse("2026-03-10T12:00:00Z");

/** A meter whose month counts ride the group commit, as in the server; monthly_usage writes are logged by a trigger. */
function setup(perMonth = 1000) {
  const db = openMemoryDatabase();
  const meter = createMemoryMeter({
    db,
    limits: parseLimits(`{"explorer":{"per_minute":100000,"per_month":${perMonth}}}`),
  });
  const committer = new GroupCommitter(db);
  if (meter.batch) committer.join(meter.batch);
  db.$client.run("CREATE TABLE month_writes (answered INTEGER)");
  db.$client.run(
    "CREATE TRIGGER month_inserted AFTER INSERT ON monthly_usage BEGIN INSERT INTO month_writes VALUES (new.answered); END",
  );
  db.$client.run(
    "CREATE TRIGGER month_updated AFTER UPDATE ON monthly_usage BEGIN INSERT INTO month_writes VALUES (new.answered); END",
  );
  const principal = seedPrincipal(db, { tier: "explorer" });
  const monthWrites = () =>
    db.$client
      .query<{ answered: number }, []>("SELECT answered FROM month_writes")
      .all()
      .map((row) => row.answered);
  return { db, meter, committer, principal, monthWrites };
}

const startAt = (db: Db, accountId: string, answered: number) =>
  db.$client.run("INSERT INTO monthly_usage (account_id, month, answered) VALUES (?, '2026-03', ?)", [
    accountId,
    answered,
  ]);

describe("month counts written once per group-commit batch (SQLite)", () => {
  test("a batch's answered calls write the month once, and each call learns its exact count in batch order", async () => {
    const { db, meter, committer, principal, monthWrites } = setup();
    startAt(db, principal.accountId, 10);
    const counts = await Promise.all(
      Array.from({ length: 6 }, () => {
        const admission = (meter as MemoryMeter).admit(principal, NOW);
        return committer.commit(() => admission.commit(db).answered);
      }),
    );
    expect(counts).toEqual([11, 12, 13, 14, 15, 16]);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(16);
    expect(monthWrites()).toEqual([10, 16]); // the seed row, then one write for the batch
    expect(committer.stats()).toEqual({ batches: 1, writes: 6 });
  });

  test("a write that fails after counting takes its count with it; the calls after it count again without it", async () => {
    const { db, meter, committer, principal, monthWrites } = setup();
    const admissions = Array.from({ length: 5 }, () => (meter as MemoryMeter).admit(principal, NOW));
    const outcomes = await Promise.allSettled(
      admissions.map((admission, n) =>
        committer.commit(() => {
          const { answered } = admission.commit(db);
          if (n === 1) throw new Error("the receipt could not be appended");
          return answered;
        }),
      ),
    );
    defined(admissions[1], "admissions[1]").release(); // as the pipeline does for a call that was not answered
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : "failed"))).toEqual([1, "failed", 2, 3, 4]);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(4);
    expect(monthWrites()).toEqual([4]);
    expect(meter.windows(principal, NOW).month.remaining).toBe(996);
  });

  test("later batches start from the count the last one committed, without reading the row; a rolled-back batch leaves it, and invalidate() reads it again", async () => {
    const { db, meter, committer, principal } = setup();
    startAt(db, principal.accountId, 10);
    const count = (fail = false) => {
      const admission = (meter as MemoryMeter).admit(principal, NOW);
      const written = committer.commit(() => {
        const { answered } = admission.commit(db);
        if (fail) throw new Error("the receipt could not be appended");
        return answered;
      });
      committer.flush();
      return written.catch((error: Error) => {
        admission.release();
        return error.message;
      });
    };
    expect(await count()).toBe(11);
    expect(await count()).toBe(12);
    expect(await count(true)).toBe("the receipt could not be appended");
    expect(await count()).toBe(13);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(13);
    // Another process adds to the row: this one goes on from its own count (the row is not read per
    // batch) until it is told to read again, as the meter's mirror is.
    db.$client.run("UPDATE monthly_usage SET answered = answered + 5 WHERE account_id = ?", [principal.accountId]);
    expect(await count()).toBe(14);
    meter.invalidate();
    expect(await count()).toBe(20);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(20);
  });

  test("several accounts in one batch: one write per account, each exact", async () => {
    const { db, meter, committer, principal, monthWrites } = setup();
    const other = seedPrincipal(db, { tier: "explorer" });
    startAt(db, other.accountId, 100);
    const count = (who: typeof principal) => {
      const admission = (meter as MemoryMeter).admit(who, NOW);
      return committer.commit(() => admission.commit(db).answered);
    };
    expect(await Promise.all([count(principal), count(other), count(principal), count(other), count(other)])).toEqual([
      1, 101, 2, 102, 103,
    ]);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(2);
    expect(answeredInDb(db, other.accountId, "2026-03")).toBe(103);
    expect(monthWrites().sort((a, b) => a - b)).toEqual([2, 100, 103]);
  });

  test("100 concurrent calls with 37 left in the month yield exactly 37 answered, through the group commit", async () => {
    const { db, meter, committer, principal } = setup(1000);
    startAt(db, principal.accountId, 963);
    const clock = new ManualClock(NOW);
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        let admission: FileAdmission;
        try {
          admission = (meter as MemoryMeter).admit(principal, clock.now());
        } catch {
          return "refused";
        }
        await Bun.sleep(i % 3); // other calls run meanwhile, as they do while a body is read
        try {
          await committer.commit(async () => {
            admission.commit(db);
            await Promise.resolve(); // an asynchronous write: other calls may be admitted meanwhile
          });
          return "answered";
        } catch {
          admission.release();
          return "failed";
        }
      }),
    );
    expect(outcomes.filter((o) => o === "answered")).toHaveLength(37);
    expect(outcomes.filter((o) => o === "failed")).toHaveLength(0);
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(1000);
  });

  test("a month reloaded while a batch awaits counts the batch's calls not written yet", async () => {
    const { db, meter, committer, principal } = setup(10);
    startAt(db, principal.accountId, 5);
    const admissions = [(meter as MemoryMeter).admit(principal, NOW), (meter as MemoryMeter).admit(principal, NOW)];
    await committer.commit(async () => {
      for (const admission of admissions) admission.commit(db);
      await Promise.resolve();
      meter.invalidate(); // another process wrote: the month is read again, inside this batch
      expect(meter.windows(principal, NOW).month.remaining).toBe(3);
    });
    expect(answeredInDb(db, principal.accountId, "2026-03")).toBe(7);
    expect(meter.windows(principal, NOW).month.remaining).toBe(3);
  });
});
