import { describe, expect, spyOn, test } from "bun:test";
import { AccessError, createAccount } from "../../src/access/accounts.ts";
import { activeKeyOf, issueKey, keysOf, parseScopes, revokeActiveKey } from "../../src/access/keys.ts";
import { CATALOG } from "../../src/skills/catalog.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { CHICAGO_TO_DALLAS, testInstance } from "../support/instance.ts";

const NOW = Date.parse("2026-11-02T09:00:00Z");

describe("key rotation and revocation", () => {
  test("issuing a key revokes the previous one in the same transaction; one active key per account", async () => {
    const db = openMemoryDatabase();
    const account = await createAccount(db, { email: "ops@example.com" }, NOW);
    const first = await issueKey(db, account.id, null, NOW);
    const second = await issueKey(db, account.id, ["rate-lookup"], NOW + 1);
    expect(second.revokedKeyId).toBe(first.record.id);
    expect((await activeKeyOf(db, account.id))?.id).toBe(second.record.id);
    expect((await keysOf(db, account.id)).filter((k) => k.revokedAt === null)).toHaveLength(1);
    expect(() => db.$client.run("UPDATE api_keys SET revoked_at = NULL WHERE id = ?", [first.record.id])).toThrow(
      /UNIQUE/,
    );
  });

  test("revoking leaves the account without an active key", async () => {
    const db = openMemoryDatabase();
    const account = await createAccount(db, { email: "ops@example.com" }, NOW);
    const issued = await issueKey(db, account.id, null, NOW);
    expect((await revokeActiveKey(db, account.id, NOW + 5))?.id).toBe(issued.record.id);
    expect(await activeKeyOf(db, account.id)).toBeUndefined();
    expect(await revokeActiveKey(db, account.id, NOW + 6)).toBeUndefined();
  });

  test("unknown scope names are refused with the list of valid ones", async () => {
    expect(() => parseScopes(["rate-lookup", "teleport"])).toThrow(AccessError);
    try {
      parseScopes(["teleport"]);
    } catch (error) {
      for (const scope of CATALOG.scopes) expect((error as Error).message).toContain(scope);
    }
    expect(parseScopes([])).toBeNull();
    expect(parseScopes(["rate-lookup", "rate-lookup"])).toEqual(["rate-lookup"]);
  });

  test("a key revoked by another connection (the CLI) is refused on the very next request", async () => {
    const dir = `${process.cwd()}/.tmp/revoke-${crypto.randomUUID()}`;
    await Bun.$`mkdir -p ${dir}`;
    const { openDatabase } = await import("../../src/db/client.ts");
    const { createRuntime } = await import("../../src/runtime.ts");
    const { createApp } = await import("../../src/app.ts");
    const { DEFAULT_LIMITS } = await import("../../src/metering/limits.ts");
    const { ManualClock } = await import("../../src/clock.ts");
    const serverDb = openDatabase(`${dir}/w.db`);
    const cliDb = openDatabase(`${dir}/w.db`);
    const clock = new ManualClock(NOW);
    const runtime = await createRuntime({ db: serverDb, clock, limits: DEFAULT_LIMITS });
    const app = createApp(runtime);
    const account = await createAccount(cliDb, { email: "cli@example.com" }, NOW);
    const issued = await issueKey(cliDb, account.id, null, NOW);
    const lookup = () =>
      app.handle(
        new Request("http://localhost/v1/rates/lookup", {
          method: "POST",
          headers: { authorization: `Bearer ${issued.key}`, "content-type": "application/json" },
          body: JSON.stringify(CHICAGO_TO_DALLAS),
        }),
      );
    expect((await lookup()).status).toBe(200);
    await revokeActiveKey(cliDb, account.id, NOW + 1);
    const refused = await lookup();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe("REVOKED_API_KEY");
    await runtime.close();
    serverDb.$client.close();
    cliDb.$client.close();
  });
});

describe("a key never appears in clear", () => {
  test("not in the database, not in error bodies, not in logs", async () => {
    const logged: string[] = [];
    const spies = (["log", "error", "warn", "info"] as const).map((level) =>
      spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      }),
    );
    const server = await testInstance();
    try {
      const { key } = await server.accountWithKey("explorer", ["fuel-surcharge"]);
      const secret = key.slice(4);
      const bodies = [
        await (await server.call("/v1/rates/lookup", { method: "POST", json: CHICAGO_TO_DALLAS, key })).text(),
        await (
          await server.call("/v1/rates/lookup", {
            method: "POST",
            body: "{bad",
            key,
            headers: { "content-type": "application/json" },
          })
        ).text(),
        await (await server.call("/v1/reports/audit?receipt_id=x", { key })).text(),
      ];
      for (const body of bodies) expect(body).not.toContain(secret.slice(0, 16));
      await server.runtime.usage.flush();
      const dump = server.db.$client.serialize();
      expect(Buffer.from(dump).includes(Buffer.from(secret.slice(8)))).toBe(false);
      expect(logged.join("\n")).not.toContain(secret.slice(8));
    } finally {
      await server.stop();
      for (const spy of spies) spy.mockRestore();
    }
  });
});
