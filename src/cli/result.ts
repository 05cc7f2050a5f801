/** What every CLI command returns; main prints `output` and exits with `exitCode`. */
export interface CommandResult {
  exitCode: number;
  output: string;
}

/** Exit codes scripts can rely on. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A mistake in how the command was called: printed as one line, exit 2. */
export class UsageError extends Error {}

export function ok(json: boolean, value: unknown, text: string): CommandResult {
  return { exitCode: EXIT.ok, output: json ? JSON.stringify(value) : text };
}

/** What a failed command says under --json, on stderr: the same two fields whatever failed. */
export type ErrorCode = "bad_arguments" | "refused" | "failed";

export function errorOutput(json: boolean, code: ErrorCode, message: string): string {
  return json ? JSON.stringify({ error: code, message }) : `waybill: ${message}`;
}

export function failure(json: boolean, message: string, code: ErrorCode = "refused"): CommandResult {
  return { exitCode: code === "bad_arguments" ? EXIT.usage : EXIT.failed, output: errorOutput(json, code, message) };
}

/** Run a parser of an argument's value; its refusal (an unknown tier, a malformed email) is a bad argument. */
export function argument<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
