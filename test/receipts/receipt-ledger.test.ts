import { describe, expect, test } from "bun:test";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { canonicalJson, sha256Hex } from "../../src/receipts/canonical.ts";
import { RECEIPT_FORMAT, RECEIPT_ID_PATTERN, type ReceiptBody } from "../../src/receipts/format.ts";
import { asc } from "drizzle-orm";
import { readStoredReceipts, storedReceiptAt } from "../../src/receipts/store.ts";
import { verifyLog } from "../../src/receipts/verify.ts";
import { openLedger, SAMPLE_RESPONSE, T0, sampleEntry, seedPrincipal } from "./fixtures.ts";
import { writeLegacyReceipts } from "./legacy-fixture.ts";
import { defined } from "../support/defined.ts";

describe("appending receipts", () => {
  test("the stored body is the canonical JSON of every recorded field with its log index, the answer only by its digest; the leaf entry is its SHA-256", async () => {
    const db = openMemoryDatabase();
    const { append } = await openLedger(db);
    const principal = seedPrincipal(db, { scopes: ["rate-lookup"] });
    const entry = sampleEntry(principal);
    const first = await append(entry);
    const second = await append(entry);
    expect([first.logIndex, second.logIndex]).toEqual([0, 1]);
    expect(second.seq).toBe(2);
    expect(second.id).toMatch(RECEIPT_ID_PATTERN);
    const row = await storedReceiptAt(db, 2);
    if (!row) throw new Error("receipt 2 was not stored");
    const body = JSON.parse(row.body) as ReceiptBody;
    expect(body).toEqual({
      v: RECEIPT_FORMAT,
      id: second.id,
      log_index: 1,
      issued_at: new Date(T0).toISOString(),
      skill: "rate-lookup",
      account_id: principal.accountId,
      key_id: principal.keyId,
      auth_obj_id: principal.authObjId,
      tier: "professional",
      scopes: ["rate-lookup"],
      request: entry.request,
      request_sha256: sha256Hex(canonicalJson(entry.request)),
      response_sha256: sha256Hex(canonicalJson(SAMPLE_RESPONSE)),
      factor_versions: entry.factorVersions,
      model_version: entry.modelVersion,
      as_of: entry.asOf,
      known_at: new Date(T0).toISOString(),
    });
    expect(row.body).toBe(canonicalJson(body));
    expect(row.hash).toBe(sha256Hex(row.body));
    expect([row.prevHash, row.signature, row.kid]).toEqual([null, null, null]);
    // Stored compactly: no body text, the shared parts (grant, request, factors, model) once for both receipts.
    expect(
      defined(
        db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM receipts WHERE body IS NOT NULL").get(),
        "the row of SELECT count(*) AS n FROM receipts WHERE body IS NOT NULL",
      ).n,
    ).toBe(0);
    expect(
      defined(
        db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM receipt_parts").get(),
        "the row of SELECT count(*) AS n FROM receipt_parts",
      ).n,
    ).toBe(4);
  });

  test("the signing key is created once and every checkpoint names it; a rotated key signs from then on", async () => {
    const db = openMemoryDatabase();
    const { ledger, append } = await openLedger(db);
    const principal = seedPrincipal(db);
    await append(sampleEntry(principal));
    const before = await ledger.publishedKeys();
    db.$client.run(
      "INSERT INTO signing_keys (kid, public_key, private_key, created_at) SELECT 'x', public_key, private_key, created_at + 1 FROM signing_keys",
    );
    // Not a real rotation (same key material under another kid): just shows the newest row is taken.
    await ledger.reloadSigningKey();
    await append(sampleEntry(principal));
    const kids = db.$client
      .query<{ kid: string }, []>("SELECT kid FROM log_checkpoints ORDER BY tree_size")
      .all()
      .map((r) => r.kid);
    expect(kids).toEqual([before.kid, "x"]);
  });
});

describe("shared receipt parts", () => {
  test("a part first stored by a write that rolls back, or by a batch that fails, is stored again by the next receipt that uses it", async () => {
    const db = openMemoryDatabase();
    const { ledger, committer } = await openLedger(db);
    const principal = seedPrincipal(db);
    const withRequest = (destination: string) =>
      sampleEntry(principal, { request: { origin: "Chicago, IL", destination, equipment: "DRY_VAN" } });
    const failed = committer.commit(async (tx) => {
      await ledger.append(tx, withRequest("Boise, ID"));
      throw new Error("the usage row failed");
    });
    const after = committer.commit((tx) => ledger.append(tx, withRequest("Boise, ID")));
    await committer.flush();
    await expect(failed).rejects.toThrow("the usage row failed");
    await after;
    db.$client.run(
      "CREATE TRIGGER refuse BEFORE INSERT ON log_checkpoints BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    committer.commit((tx) => ledger.append(tx, withRequest("Tulsa, OK"))).catch(() => {});
    await committer.flush();
    db.$client.run("DROP TRIGGER refuse");
    const retried = committer.commit((tx) => ledger.append(tx, withRequest("Tulsa, OK")));
    await committer.flush();
    await retried;
    expect(
      (await readStoredReceipts(db, undefined, [asc(db.t.receipts.seq)])).map(
        (row) => (JSON.parse(row.body) as ReceiptBody).request,
      ),
    ).toEqual([withRequest("Boise, ID").request, withRequest("Tulsa, OK").request]);
    expect(await verifyLog(db)).toEqual({ ok: true, checked: 2, checkpoints: 2 });
  });
});

describe("upgrading a database with receipts from before the log", () => {
  test("legacy receipts become the first leaves, stay verifiable with their own signatures, and new receipts follow", async () => {
    const db = openMemoryDatabase();
    const principal = seedPrincipal(db);
    await writeLegacyReceipts(db, principal, 300);
    expect(await verifyLog(db)).toMatchObject({
      ok: false,
      firstBrokenSeq: 256,
      problem: expect.stringContaining("start the server once"),
    });
    const { ledger, append } = await openLedger(db);
    expect(defined(ledger.log.latest(), "ledger.log.latest()").size).toBe(300);
    // LANE_HISTORY's index column is filled for them too.
    expect(
      defined(
        db.$client
          .query<{ lanes: number }, []>(
            "SELECT count(DISTINCT lane) AS lanes FROM receipts WHERE lane = 'chicago, il' || char(10) || 'dallas, tx'",
          )
          .get(),
        "the row of SELECT count(DISTINCT lane) AS lanes FROM receipts WHERE lane = 'chicago, il' …",
      ).lanes,
    ).toBe(1);
    expect(
      defined(
        db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM receipts WHERE lane IS NULL").get(),
        "the row of SELECT count(*) AS n FROM receipts WHERE lane IS NULL",
      ).n,
    ).toBe(0);
    const next = await append(sampleEntry(principal));
    expect(next.logIndex).toBe(300);
    expect(await verifyLog(db)).toEqual({ ok: true, checked: 301, checkpoints: 2 });
    // The legacy chain is still checked: breaking a link is named at its seq.
    db.$client.run("UPDATE receipts SET prev_hash = hash WHERE seq = 200");
    expect(await verifyLog(db)).toMatchObject({ ok: false, firstBrokenSeq: 200 });
  });
});
