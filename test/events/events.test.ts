import { inTransaction } from "../../src/db/transaction.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey, revokeActiveKey } from "../../src/access/keys.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { events } from "../../src/db/schema.ts";
import { recordDataUpdates } from "../../src/events/data-updates.ts";
import { thresholdReached } from "../../src/metering/quota-threshold.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import { appendObservations } from "../../src/reference/storage/append.ts";
import { testInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

describe("the event log", () => {
  test("keys: created and revoked, in the key's own transaction, without the key itself", async () => {
    const db = openMemoryDatabase();
    const account = await createAccount(db, { email: "keys@example.com", tier: "starter" }, 1);
    const first = await issueKey(db, account.id, null, 2);
    await issueKey(db, account.id, ["rate-alerts"], 3);
    await revokeActiveKey(db, account.id, 4);
    const logged = db.select().from(events).where(eq(events.accountId, account.id)).orderBy(events.seq).all();
    expect(logged.map((e) => e.type)).toEqual(["key.created", "key.revoked", "key.created", "key.revoked"]);
    expect(logged[1]?.payload).toMatchObject({ key_id: first.record.id, display_id: first.record.displayId });
    expect(JSON.stringify(logged)).not.toContain(first.key);
  });

  test("data.updated: silent on a fresh database, then one event per account naming what was added", async () => {
    const db = openMemoryDatabase();
    const a = await createAccount(db, { email: "a@example.com" }, 1);
    const b = await createAccount(db, { email: "b@example.com" }, 1);
    const t = Date.parse("2026-11-20T12:00:00Z");
    expect(await inTransaction(db, (tx) => recordDataUpdates(tx, t))).toBeUndefined();
    await appendObservations(
      db,
      { importId: "imp_t1", source: "eia", fileName: "f", fileSha256: "0".repeat(64) },
      [
        { seriesId: "EMD_EPD2D_PTE_NUS_DPG", observedOn: "2026-11-16", value: 3.9 },
        { seriesId: "EMD_EPD2D_PTE_R20_DPG", observedOn: "2026-11-16", value: 3.8 },
      ],
      t + 1,
    );
    const update = defined(await inTransaction(db, (tx) => recordDataUpdates(tx, t + 2)), "the data update");
    expect(update).toMatchObject({ observationsAdded: 2, importIds: ["imp_t1"] });
    for (const account of [a, b]) {
      const [event] = db.select().from(events).where(eq(events.accountId, account.id)).all();
      expect(event).toMatchObject({ type: "data.updated", payload: { observations_added: 2, series_count: 2 } });
    }
    expect(await inTransaction(db, (tx) => recordDataUpdates(tx, t + 3))).toBeUndefined(); // nothing new since
  });

  test("quota.threshold: the calls reaching 80 % and 100 % of the month", async () => {
    const at = (answered: number) => thresholdReached({ month: "2026-10", answered, limit: 25 });
    expect([19, 20, 21, 24, 25].map(at)).toEqual([undefined, 80, undefined, undefined, 100]);
  });

  test("quota.threshold over HTTP: listed in /v1/events at 80 % and 100 %", async () => {
    const server = await testInstance({
      listen: true,
      limits: { ...DEFAULT_LIMITS, explorer: { perMinute: 100, perMonth: 5 } },
    });
    try {
      const { key } = await server.accountWithKey("explorer");
      for (let i = 0; i < 5; i++) {
        const answered = await server.call("/v1/diesel/trends?region=NATIONAL&weeks=4", { key });
        expect(answered.status).toBe(200);
      }
      const listed = (await (await server.call("/v1/events?type=quota.threshold", { key })).json()) as {
        events: { data: Record<string, unknown> }[];
      };
      expect(listed.events.map((e) => e.data)).toEqual([
        { month: "2026-10", percent: 80, answered: 4, limit: 5 },
        { month: "2026-10", percent: 100, answered: 5, limit: 5 },
      ]);
    } finally {
      await server.stop();
    }
  });
});
