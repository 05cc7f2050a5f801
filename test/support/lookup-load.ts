/** Rate lookups against a running binary, for the suites that load it and kill it mid-way. */

const LANE = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };

/** A call's HTTP status and JSON body, or "no answer" when the server died with it in flight (nothing was acknowledged). */
export type LookupOutcome = { status: number; body: Record<string, unknown> } | { status: "no answer" };

/** One `POST /v1/rates/lookup` (Chicago to Dallas, dry van) at `base` with `key`. */
export async function rateLookupAt(base: string, key: string): Promise<LookupOutcome> {
  try {
    const response = await fetch(`${base}/v1/rates/lookup`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(LANE),
      signal: AbortSignal.timeout(20_000),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch {
    return { status: "no answer" };
  }
}

/**
 * Load with a crash in the middle: `total` calls from `workers` concurrent callers, and `kill()` run
 * once, as soon as `killAfter` calls have been answered with 200 (the kill -9 suites).
 */
export async function loadWithKill<T extends { status: number | "no answer" }>(options: {
  total: number;
  workers: number;
  killAfter: number;
  call: () => Promise<T>;
  kill: () => void;
}): Promise<{ outcomes: T[]; killed: boolean }> {
  const outcomes: T[] = [];
  let sent = 0;
  let answered = 0;
  let killed = false;
  const worker = async () => {
    while (sent < options.total) {
      sent += 1;
      const outcome = await options.call();
      outcomes.push(outcome);
      if (outcome.status === 200) answered += 1;
      if (!killed && answered >= options.killAfter) {
        killed = true;
        options.kill();
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return { outcomes, killed };
}
