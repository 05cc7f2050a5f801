import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { auditReportSkill } from "../../src/skills/audit-report/skill.ts";
import type { ReceiptTrace } from "../../src/skills/audit-report/trace.ts";
import { canonicalJson } from "../../src/receipts/canonical.ts";
import { createReceiptLedger } from "../../src/receipts/chain.ts";
import { publicKeyRoute } from "../../src/http/v1/public-key.ts";
import { T0 } from "./fixtures.ts";
import { seedPrincipal } from "../support/accounts.ts";

const SCRIPT = join(import.meta.dir, "../../scripts/verify-receipt.ts");
const dir = mkdtempSync(join(tmpdir(), "waybill-offline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return file;
}

function runVerifier(...args: string[]) {
  const run = Bun.spawnSync([process.execPath, SCRIPT, ...args], { stdout: "pipe", stderr: "pipe" });
  return { exitCode: run.exitCode, stdout: run.stdout.toString() };
}

/** JSON that trips naive canonicalizers: key order by UTF-16 unit, exponent forms, escapes, non-ASCII. */
const AWKWARD_RESPONSE = {
  rate_per_mile: 2.137,
  tiny: 1e-7,
  huge: 1e21,
  sum: 0.1 + 0.2,
  negative_zero: -0,
  text: "Ünïcødé \u2028 \"quoted\" \\ tab\t 🚚",
  nested: { b: [1, { z: null, a: true }], a: "first", B: "upper", é: "accent", "\u{1F69A}": "truck" },
};

let auditReport: ReceiptTrace;
let publicKeyFile: string;
let receivedResponse: Record<string, unknown>;

beforeAll(async () => {
  const db = openMemoryDatabase();
  const ledger = createReceiptLedger(db, new ManualClock(T0));
  const principal = seedPrincipal(db);
  const receipt = db.$client
    .transaction(() =>
      ledger.append(db, {
        issuedAt: T0,
        skill: "diesel-trends",
        principal,
        request: { region: "PADD2", weeks: 13 },
        response: AWKWARD_RESPONSE,
        factorVersions: [],
        modelVersion: "trends/1",
        asOf: "2026-03-02",
        knownAt: T0,
      }),
    )
    .immediate();
  receivedResponse = { ...AWKWARD_RESPONSE, receipt_id: receipt.id, auth_obj_id: principal.authObjId };
  const instance = { db, reference: { view: () => ({}) as never, coverage: () => undefined }, skills: [] };
  auditReport = auditReportSkill.handler({ receipt_id: receipt.id }, { data: {} as never, caller: principal, instance }).answer as ReceiptTrace;

  const response = await publicKeyRoute({ ledger }).handle(new Request("http://localhost/v1/receipts/public-key"));
  expect(response.status).toBe(200);
  publicKeyFile = write("public-key.json", await response.text());
});

describe("GET /v1/receipts/public-key", () => {
  test("publishes the key as a JWK and as raw base64url, with its kid, without authentication", async () => {
    const published = JSON.parse(await Bun.file(publicKeyFile).text());
    expect(published.kid).toBe(auditReport.chain.kid);
    expect(published.jwk).toEqual({ kty: "OKP", crv: "Ed25519", x: published.public_key, kid: published.kid, alg: "EdDSA", use: "sig" });
    expect(published.receipt_format.genesis_prev_hash).toBe("0".repeat(64));
  });
});

describe("scripts/verify-receipt.ts", () => {
  test("accepts a real receipt, from the whole audit report or from its chain block, and the response as received", () => {
    const whole = runVerifier(write("report.json", auditReport), publicKeyFile, "--response", write("response.json", receivedResponse));
    expect(whole.stdout).not.toContain("FAIL");
    expect(whole.stdout.trim().split("\n").at(-1)).toBe("valid");
    expect(whole.exitCode).toBe(0);
    const chainOnly = runVerifier(write("chain.json", auditReport.chain), publicKeyFile);
    expect(chainOnly.exitCode).toBe(0);
    expect(chainOnly.stdout).toContain(`response_sha256 ${(auditReport.chain.body as { response_sha256: string }).response_sha256}`);
  });

  test("the receipt holds the answer's digest, not the answer", () => {
    const body = auditReport.chain.body as Record<string, unknown>;
    expect(body).not.toHaveProperty("response");
    expect(body.response_sha256).toBe(createHash("sha256").update(canonicalJson(AWKWARD_RESPONSE)).digest("hex"));
  });

  test("rejects a receipt whose signed response digest was changed, even to the digest of the answer received", () => {
    const tampered = structuredClone(auditReport);
    const otherAnswer = { ...receivedResponse, rate_per_mile: 2.138 };
    const otherDigest = createHash("sha256").update(canonicalJson({ ...AWKWARD_RESPONSE, rate_per_mile: 2.138 })).digest("hex");
    (tampered.chain.body as { response_sha256: string }).response_sha256 = otherDigest;
    const run = runVerifier(write("tampered.json", tampered), publicKeyFile, "--response", write("tampered-answer.json", otherAnswer));
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain("ok   the response you received is the one signed");
    expect(run.stdout).toContain("FAIL hash = SHA-256 of the canonical body");
    expect(run.stdout).toContain("FAIL Ed25519 signature over the canonical body");
    expect(run.stdout.trim().split("\n").at(-1)).toBe("invalid");
  });

  test("rejects a body of another format version, and one without a response digest", () => {
    const older = structuredClone(auditReport);
    (older.chain.body as { v: string }).v = "waybill.receipt/1";
    expect(runVerifier(write("older.json", older), publicKeyFile).stdout).toContain("FAIL format is waybill.receipt/2");
    const undigested = structuredClone(auditReport);
    delete (undigested.chain.body as { response_sha256?: string }).response_sha256;
    const run = runVerifier(write("undigested.json", undigested), publicKeyFile);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain("FAIL response_sha256 is a SHA-256 digest");
  });

  test("rejects a response that is not the one signed, and a key file without the receipt's key", () => {
    const otherAnswer = runVerifier(write("report2.json", auditReport), publicKeyFile, "--response", write("other.json", { ...receivedResponse, tiny: 2e-7 }));
    expect(otherAnswer.exitCode).toBe(1);
    expect(otherAnswer.stdout).toContain("FAIL the response you received is the one signed");
    expect(otherAnswer.stdout).toContain("ok   Ed25519 signature over the canonical body");

    const strangerKey = createReceiptLedger(openMemoryDatabase(), new ManualClock(T0)).publishedKeys();
    const wrongKey = runVerifier(write("report3.json", auditReport), write("other-key.json", strangerKey));
    expect(wrongKey.exitCode).toBe(1);
    expect(wrongKey.stdout).toContain("FAIL public key");
  });

  test("rejects a signature made by another key that claims the receipt's kid", () => {
    const impostor = createReceiptLedger(openMemoryDatabase(), new ManualClock(T0)).publishedKeys();
    const claimed = { ...impostor, kid: auditReport.chain.kid, jwk: { ...impostor.jwk, kid: auditReport.chain.kid }, keys: [] };
    const run = runVerifier(write("report4.json", auditReport), write("impostor-key.json", claimed));
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain("FAIL kid = first 16 hex");
    expect(run.stdout).toContain("FAIL Ed25519 signature");
  });

  test("exits 2, not 1, when it cannot read its input: that is no verdict on the receipt", () => {
    expect(runVerifier(join(dir, "missing.json"), publicKeyFile).exitCode).toBe(2);
    expect(runVerifier(write("not-json.json", "{"), publicKeyFile).exitCode).toBe(2);
    expect(runVerifier(write("report5.json", auditReport)).exitCode).toBe(2);
  });
});
