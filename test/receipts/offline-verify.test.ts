import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyCommand } from "../../src/cli/verify.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { auditReportSkill } from "../../src/skills/audit-report/skill.ts";
import type { ReceiptTrace } from "../../src/skills/audit-report/trace.ts";
import { canonicalJson } from "../../src/receipts/canonical.ts";
import { publicKeyRoute } from "../../src/http/routes/v1/public-key.ts";
import { openLedger, sampleEntry, seedPrincipal, T0 } from "./fixtures.ts";

const SCRIPT = join(import.meta.dir, "../../scripts/verify-receipt.ts");
const dir = mkdtempSync(join(tmpdir(), "waybill-offline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return file;
}

/** The two verifiers: the independent script (built-in crypto only) and `waybill verify` (the binary's code). */
const verifiers = {
  script: (report: string, checkpoint: string, key: string, response?: string) => {
    const run = Bun.spawnSync(
      [process.execPath, SCRIPT, report, checkpoint, key, ...(response ? ["--response", response] : [])],
      { stdout: "pipe", stderr: "pipe" },
    );
    return { exitCode: run.exitCode, output: run.stdout.toString() };
  },
  binary: (report: string, checkpoint: string, key: string, response?: string) => {
    try {
      return verifyCommand({ receipt: report, checkpoint, key, response, json: false });
    } catch {
      return { exitCode: 2, output: "" };
    }
  },
};

/** JSON that trips naive canonicalizers: key order by UTF-16 unit, exponent forms, escapes, non-ASCII. */
const AWKWARD_RESPONSE = {
  rate_per_mile: 2.137,
  tiny: 1e-7,
  huge: 1e21,
  sum: 0.1 + 0.2,
  negative_zero: -0,
  text: 'Ünïcødé \u2028 "quoted" \\ tab\t 🚚',
  nested: { b: [1, { z: null, a: true }], a: "first", B: "upper", é: "accent", "\u{1F69A}": "truck" },
};

let auditReport: ReceiptTrace;
let publicKeyFile: string;
let checkpointFile: string;
let responseFile: string;
let strangerKeyFile: string;

beforeAll(async () => {
  const db = openMemoryDatabase();
  const { ledger, append, appendBatch } = await openLedger(db);
  const principal = seedPrincipal(db);
  await appendBatch(Array.from({ length: 4 }, () => sampleEntry(principal)));
  const receipt = await append({
    ...sampleEntry(principal),
    skill: "diesel-trends",
    request: { region: "PADD2", weeks: 13 },
    response: AWKWARD_RESPONSE,
    asOf: "2026-03-02",
    knownAt: T0,
  });
  await appendBatch(Array.from({ length: 3 }, () => sampleEntry(principal)));
  const instance = {
    db,
    reference: { view: () => ({}) as never, coverage: () => undefined } as never,
    skills: [],
    log: ledger.log,
  };
  auditReport = (
    await auditReportSkill.handler({ receipt_id: receipt.id }, { data: {} as never, caller: principal, instance })
  ).answer as ReceiptTrace;
  responseFile = write("response.json", {
    ...AWKWARD_RESPONSE,
    receipt_id: receipt.id,
    log_index: receipt.logIndex,
    auth_obj_id: principal.authObjId,
  });
  checkpointFile = write("checkpoint.txt", auditReport.log.checkpoint);
  const response = await publicKeyRoute({ ledger }).handle(new Request("http://localhost/v1/receipts/public-key"));
  expect(response.status).toBe(200);
  publicKeyFile = write("public-key.json", await response.text());
  strangerKeyFile = write("stranger.json", await (await openLedger(openMemoryDatabase())).ledger.publishedKeys());
});

describe("the audit report's log block", () => {
  test("holds the receipt at its log index with an inclusion proof into the latest checkpoint, the answer only by digest", () => {
    expect(auditReport.log).toMatchObject({ log_index: 4, tree_size: 8 });
    expect(auditReport.log.inclusion_proof).toHaveLength(3);
    const body = auditReport.log.receipt as Record<string, unknown>;
    expect(body).not.toHaveProperty("response");
    expect(body.response_sha256).toBe(createHash("sha256").update(canonicalJson(AWKWARD_RESPONSE)).digest("hex"));
  });
});

for (const [name, run] of Object.entries(verifiers)) {
  describe(`${name === "script" ? "scripts/verify-receipt.ts" : "waybill verify"}`, () => {
    test("accepts a real receipt with its checkpoint and the published key set, a bare verifier key, and the response as received", () => {
      const whole = run(write(`${name}-report.json`, auditReport), checkpointFile, publicKeyFile, responseFile);
      expect(whole.output).not.toContain("FAIL");
      expect(whole.output.trim().split("\n").at(-1)).toBe("valid");
      expect(whole.exitCode).toBe(0);
      const published = JSON.parse(require("node:fs").readFileSync(publicKeyFile, "utf8")) as {
        note_verifier_key: string;
      };
      expect(
        run(write(`${name}-log.json`, auditReport.log), checkpointFile, published.note_verifier_key).exitCode,
      ).toBe(0);
    });

    test("rejects a receipt whose response digest was changed, even to the digest of the answer received", () => {
      const tampered = structuredClone(auditReport);
      (tampered.log.receipt as { response_sha256: string }).response_sha256 = createHash("sha256")
        .update(canonicalJson({ ...AWKWARD_RESPONSE, tiny: 2 }))
        .digest("hex");
      const other = write(`${name}-other-answer.json`, { ...AWKWARD_RESPONSE, tiny: 2 });
      const result = run(write(`${name}-tampered.json`, tampered), checkpointFile, publicKeyFile, other);
      expect(result.exitCode).toBe(1);
      expect(result.output).toMatch(/FAIL leaf entry = SHA-256 of the canonical (receipt )?body/);
      expect(result.output.trim().split("\n").at(-1)).toBe("invalid");
    });

    test("rejects a forged entry (the proof no longer leads to the root), an answer that is not the one hashed, and another log's key", () => {
      const forged = structuredClone(auditReport);
      (forged.log.receipt as { tier: string }).tier = "enterprise";
      forged.log.leaf_entry = createHash("sha256")
        .update(canonicalJson(forged.log.receipt as never))
        .digest("hex");
      const result = run(write(`${name}-forged.json`, forged), checkpointFile, publicKeyFile);
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain("FAIL the inclusion proof leads from the leaf to the checkpoint's root");

      const wrongAnswer = run(
        write(`${name}-r.json`, auditReport),
        checkpointFile,
        publicKeyFile,
        write(`${name}-wrong.json`, { ...AWKWARD_RESPONSE, tiny: 2e-7 }),
      );
      expect(wrongAnswer.exitCode).toBe(1);
      expect(wrongAnswer.output).toMatch(/FAIL the response you (received|kept) is the one (the receipt )?hashed/);

      const strangerKey = run(write(`${name}-r2.json`, auditReport), checkpointFile, strangerKeyFile);
      expect(strangerKey.exitCode).toBe(1);
      expect(strangerKey.output).toMatch(/FAIL checkpoint .*(signed|signature) by a given key/);
    });

    test("rejects a checkpoint whose root was changed under its signature", () => {
      const lines = auditReport.log.checkpoint.split("\n");
      lines[2] = createHash("sha256").update("another tree").digest("base64");
      const result = run(
        write(`${name}-r3.json`, auditReport),
        write(`${name}-cp.txt`, lines.join("\n")),
        publicKeyFile,
      );
      expect(result.exitCode).toBe(1);
      expect(result.output).toMatch(/FAIL checkpoint .*(signed|signature) by a given key/);
    });
  });
}

test("the script exits 2, not 1, when it cannot read its input: that is no verdict on the receipt", () => {
  expect(verifiers.script(join(dir, "missing.json"), checkpointFile, publicKeyFile).exitCode).toBe(2);
  expect(verifiers.script(write("not-json.json", "{"), checkpointFile, publicKeyFile).exitCode).toBe(2);
  expect(Bun.spawnSync([process.execPath, SCRIPT, write("report5.json", auditReport)]).exitCode).toBe(2);
});
