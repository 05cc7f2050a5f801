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
