/**
 * The receipt log through the compiled binary, as an operator and a client use it: answers, the
 * audit report's proof, `waybill verify` offline with nothing but the binary and three files, a
 * signing-key rotation while the server runs, and trimmed receipts caught against the server's
 * witness file (by `receipts verify` and by the server refusing to start) and a checkpoint the client kept.
 */
import { expect, test } from "bun:test";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { binaryFolderForFile, runCli, startBinary } from "../support/binary.ts";
import { defined } from "../support/defined.ts";

const folder = binaryFolderForFile();

const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

test("answers are provable offline with the binary alone, across a key rotation, and trimming the log is caught", async () => {
  const { dir, exe } = folder;
  const db = ["--db", "./log.db"];
  expect(
    runCli(exe, ["accounts", "create", "--email", "audit@example.com", "--tier", "professional", ...db], dir).exitCode,
  ).toBe(0);
  const key = defined(
    runCli(exe, ["keys", "create", "--email", "audit@example.com", ...db], dir).stdout.split("\n")[0],
    "the new key (first line of keys create)",
  );
  const server = await startBinary(exe, db, { cwd: dir, env: { WAYBILL_PUBLIC_URL: "https://rates.example.com/" } });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers ?? {}) },
    });
  try {
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(
        (await (await call("/v1/rates/lookup", { method: "POST", body: JSON.stringify(LANE) })).json()) as Record<
          string,
          unknown
        >,
      );
    expect(answers.map((a) => a.log_index)).toEqual([0, 1, 2]);
    const keptCheckpoint = await (await fetch(`${server.url}/log/checkpoint`)).text();
    expect(keptCheckpoint.startsWith("rates.example.com/log\n3\n")).toBe(true);

    const report = await (
      await call(`/v1/reports/audit?receipt_id=${defined(answers[1], "answers[1]").receipt_id}`)
    ).json();
    const publicKey = await (await fetch(`${server.url}/v1/receipts/public-key`)).text();
    writeFileSync(join(dir, "report.json"), JSON.stringify(report));
    writeFileSync(join(dir, "checkpoint.txt"), keptCheckpoint);
    writeFileSync(join(dir, "public-key.json"), publicKey);
    writeFileSync(join(dir, "answer.json"), JSON.stringify(answers[1]));
    const offline = [
      "verify",
      "--receipt",
      "report.json",
      "--checkpoint",
      "checkpoint.txt",
      "--key",
      "public-key.json",
      "--response",
      "answer.json",
    ];
    const verified = runCli(exe, offline, dir);
    expect(verified.stdout.trim().split("\n").at(-1)).toBe("valid");
    expect(verified.exitCode).toBe(0);
    writeFileSync(join(dir, "other-answer.json"), JSON.stringify({ ...answers[1], rate_per_mile: 0.01 }));
    const refused = runCli(exe, [...offline.slice(0, -1), "other-answer.json"], dir);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("FAIL the response you kept is the one the receipt hashed");

    // Rotate while the server runs: the next checkpoint names the new key; the old one stays published.
    const rotated = runCli(exe, ["keys", "rotate-signing", "--json", ...db], dir);
    expect(rotated.exitCode).toBe(0);
    const newKid = (JSON.parse(rotated.stdout) as { kid: string }).kid;
    await call("/v1/rates/lookup", { method: "POST", body: JSON.stringify(LANE) });
    const keys = (await (await fetch(`${server.url}/v1/receipts/public-key`)).json()) as {
      kid: string;
      keys: { kid: string; note_verifier_key: string }[];
    };
    expect(keys.kid).toBe(newKid);
    expect(keys.keys).toHaveLength(2);
    const newest = await (await fetch(`${server.url}/log/checkpoint`)).text();
    const newKey = defined(
      keys.keys.find((k) => k.kid === newKid),
      "the keys.keys entry where k.kid === newKid",
    ).note_verifier_key;
    expect(newest).toContain("\n\n— rates.example.com/log ");
    // The old checkpoint still verifies with the old key alone; a proof is only good for its own tree size.
    const oldKey = defined(
      keys.keys.find((k) => k.kid !== newKid),
      "the keys.keys entry where k.kid !== newKid",
    ).note_verifier_key;
    expect(
      runCli(exe, ["verify", "--receipt", "report.json", "--checkpoint", "checkpoint.txt", "--key", oldKey], dir)
        .exitCode,
    ).toBe(0);
    writeFileSync(join(dir, "newest.txt"), newest);
    const stale = runCli(
      exe,
      ["verify", "--receipt", "report.json", "--checkpoint", "newest.txt", "--key", newKey],
      dir,
    );
    expect(stale.stderr).toContain("FAIL the inclusion proof is for the checkpoint's tree size 5");
    expect(runCli(exe, ["receipts", "verify", ...db], dir).exitCode).toBe(0);
  } finally {
    expect(await server.stop()).toBe(0);
  }

  // The server kept its latest checkpoint beside the database as it went.
  const witness = join(dir, "log.db.checkpoint");
  expect(readFileSync(witness, "utf8")).toStartWith("rates.example.com/log\n5\n");

  // Trim the newest receipts and the checkpoints that covered them: the database alone is consistent,
  // but the witness file and the checkpoint the client kept show it, and the server refuses to start.
  const sqlite = new Database(join(dir, "log.db"));
  sqlite.run("DELETE FROM receipts WHERE seq > 2");
  sqlite.run("DELETE FROM log_checkpoints WHERE tree_size > 2");
  sqlite.close();
  const byWitness = runCli(exe, ["receipts", "verify", ...db], dir);
  expect(byWitness.exitCode).toBe(1);
  expect(byWitness.stderr).toContain("the kept checkpoint at tree size 5 covers receipts the log no longer has");
  const refused = Bun.spawnSync([exe, "serve", "--port", "0", ...db], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir },
    timeout: 20_000,
  });
  expect(refused.exitCode).toBe(1);
  expect(refused.stderr.toString()).toContain("the log no longer holds the checkpoint of 5 receipts kept in");
  expect(refused.stderr.toString()).toContain("receipts or checkpoints were removed");
  // Set aside on purpose (as after restoring an older backup), only the client's copy still shows it.
  renameSync(witness, `${witness}.set-aside`);
  expect(runCli(exe, ["receipts", "verify", ...db], dir).exitCode).toBe(0);
  const caught = runCli(exe, ["receipts", "verify", "--checkpoint", "checkpoint.txt", ...db], dir);
  expect(caught.exitCode).toBe(1);
  expect(caught.stderr).toContain("the kept checkpoint at tree size 3 covers receipts the log no longer has");
}, 120_000);
