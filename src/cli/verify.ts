import { existsSync, readFileSync } from "node:fs";
import { type OfflineCheck, verifierKeysFrom, verifyOffline } from "../receipts/offline-verify.ts";
import { EXIT, UsageError, type CommandResult } from "./result.ts";

function read(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`cannot read the ${what} file ${file}`);
  }
}

function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(read(file, what));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`the ${what} file ${file} is not JSON`);
  }
}

/**
 * `waybill verify --receipt FILE --checkpoint FILE --key KEY [--response FILE]`: check a saved audit
 * report offline, with no server and no database. KEY is a note verifier key, or a file holding
 * one (or the body of GET /v1/receipts/public-key).
 */
export function verifyCommand(options: {
  receipt?: string;
  checkpoint?: string;
  key?: string;
  response?: string;
  json: boolean;
}): CommandResult {
  if (!options.receipt || !options.checkpoint || !options.key) {
    throw new UsageError("verify needs --receipt FILE --checkpoint FILE --key KEY (see 'waybill verify --help')");
  }
  const keyText = existsSync(options.key) ? read(options.key, "key") : options.key;
  let checks: OfflineCheck[];
  try {
    checks = verifyOffline({
      report: readJson(options.receipt, "receipt"),
      checkpoint: read(options.checkpoint, "checkpoint"),
      verifierKeys: verifierKeysFrom(keyText),
      response: options.response ? readJson(options.response, "response") : undefined,
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return { exitCode: EXIT.failed, output: `invalid: ${(error as Error).message}` };
  }
  const valid = checks.every((check) => check.ok);
  const exitCode = valid ? EXIT.ok : EXIT.failed;
  if (options.json) return { exitCode, output: JSON.stringify({ valid, checks }) };
  const lines = checks.map((check) => `${check.ok ? "ok  " : "FAIL"} ${check.name}`);
  return { exitCode, output: [...lines, valid ? "valid" : "invalid"].join("\n") };
}
