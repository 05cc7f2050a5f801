import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAccount } from "../../src/access/accounts.ts";
import { issueKey } from "../../src/access/keys.ts";
import { createApp } from "../../src/app.ts";
import { ManualClock } from "../../src/clock.ts";
import { openDatabase } from "../../src/db/client.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import { appendObservations } from "../../src/reference/storage/append.ts";
import { createRuntime } from "../../src/runtime.ts";

test("a figure imported by another process (the CLI) is used on the server's next call", async () => {
  const dir = mkdtempSync(join(tmpdir(), "waybill-external-"));
  const server = openDatabase(join(dir, "w.db"));
  const cli = openDatabase(join(dir, "w.db"));
  const clock = new ManualClock(Date.parse("2026-11-20T12:00:00Z"));
  const runtime = await createRuntime({ db: server, clock, limits: DEFAULT_LIMITS });
  const app = createApp(runtime);
  try {
    const account = await createAccount(cli, { email: "ops@example.com" }, clock.now());
    const { key } = await issueKey(cli, account.id, null, clock.now());
    const nationalDiesel = async () => {
      const response = await app.handle(
        new Request("http://localhost/v1/diesel/trends?region=NATIONAL&weeks=4", {
          headers: { authorization: `Bearer ${key}` },
        }),
      );
      expect(response.status).toBe(200);
      return ((await response.json()) as { latest: { date: string; price: number } }).latest;
    };
    expect((await nationalDiesel()).date).toBe("2026-10-05");

    await appendObservations(
      cli,
      { importId: "imp_test_eia", source: "eia", fileName: "pswrgvwall.csv", fileSha256: "0".repeat(64) },
      [{ seriesId: "EMD_EPD2D_PTE_NUS_DPG", observedOn: "2026-10-12", value: 6.111 }],
      clock.now(),
    );
    clock.advance(1000); // the view admits figures fetched on or before the call
    expect(await nationalDiesel()).toMatchObject({ date: "2026-10-12", price: 6.111 });
  } finally {
    await runtime.close();
    server.$client.close();
    cli.$client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
